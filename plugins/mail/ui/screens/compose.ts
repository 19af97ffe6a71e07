import { LitElement, errorText, html, kit, navigate, nothing, routeQuery, screenStyles, signedUploadTarget, toast, uploadFileBody, type UploadTarget } from '@wpk/ui';
import { MAIL_STYLES, accounts, addressText, fileText, parseAddresses, read, write, type Account, type Attachment, type Draft, type Message, type Signature, type Upload } from '../api.js';

/** How long typing pauses before the draft is saved. */
const SAVE_AFTER_MS = 800;

/** The signature as mail clients insert it: after the "-- " line. */
const signatureBlock = (signature: Signature | undefined): string => (signature?.text ? `\n\n-- \n${signature.text}` : '');

/** The quoted original under a reply. */
const quoted = (message: Message): string => `\n\nOn ${new Date(message.received_at ?? message.sent_at ?? message.updated_at).toUTCString()}, ${addressText(message.from)} wrote:\n${message.text.replace(/\s+$/, '').split('\n').map((line) => `> ${line}`).join('\n')}`;

/**
 * `/compose` (`?account=`, `?reply={message_id}`, `?draft={draft_id}`): writes a message from one
 * of the member's accounts. The account's default signature is in the text from the start; what
 * is typed is saved as a draft (the drafts route) once typing pauses, so it is in Drafts should
 * the page close; Send sends the draft as it is (the signature already in the text).
 */
export class MailCompose extends LitElement {
  static override properties = { path: {}, files: { state: true }, accounts: { state: true }, signatures: { state: true }, error: { state: true }, status: { state: true }, busy: { state: true }, ready: { state: true } };
  static override styles = [screenStyles, MAIL_STYLES];
  declare path: string;
  declare accounts: Account[] | null;
  declare signatures: Signature[];
  declare error: string | null;
  declare status: string;
  declare busy: boolean;
  declare ready: boolean;
  /** The files attached so far (uploaded into the account's files; the draft names them). */
  declare files: Array<Pick<Attachment, 'file_key' | 'filename' | 'size_bytes'>>;
  private draftId: string | null = null;
  private accountId = '';
  private values = { to: '', cc: '', subject: '', text: '', in_reply_to: '' };
  private timer: ReturnType<typeof setTimeout> | null = null;
  private saving: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor() {
    super();
    this.path = '/compose';
    this.accounts = null;
    this.signatures = [];
    this.error = null;
    this.status = '';
    this.busy = false;
    this.ready = false;
    this.files = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('New message');
  }

  protected override willUpdate(changed: Map<string, unknown>): void {
    // Another compose path on the same screen (Compose from a reply): what was typed is kept as a draft, then a fresh form.
    if (changed.has('path')) void this.restart();
  }

  private async restart(): Promise<void> {
    await this.save();
    this.draftId = null;
    this.values = { to: '', cc: '', subject: '', text: '', in_reply_to: '' };
    this.files = [];
    this.ready = false;
    this.error = null;
    this.status = '';
    await this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Leaving the screen keeps what was typed: the pending save runs now.
    if (this.timer) void this.save();
  }

  private async load(): Promise<void> {
    try {
      const query = routeQuery(this.path);
      this.accounts = await accounts();
      const draftId = query.get('draft');
      if (draftId) {
        const draft = await read<Draft>(`/mail/drafts/${draftId}`);
        this.draftId = draft.id;
        this.accountId = draft.account_id;
        this.values = { to: draft.to.map(addressText).join(', '), cc: draft.cc.map(addressText).join(', '), subject: draft.subject, text: draft.text, in_reply_to: draft.in_reply_to };
        this.files = draft.attachments;
        this.signatures = await this.signaturesOf(this.accountId);
      } else {
        this.accountId = this.accounts.find((account) => account.id === query.get('account'))?.id ?? this.accounts[0]?.id ?? '';
        if (!this.accountId) throw new Error('You have no mailbox to write from.');
        this.signatures = await this.signaturesOf(this.accountId);
        const account = this.accounts.find((each) => each.id === this.accountId)!;
        let text = signatureBlock(this.signatures.find((signature) => signature.id === account.signature_id));
        const replyTo = query.get('reply');
        if (replyTo) {
          const original = await read<Message>(`/mail/accounts/${this.accountId}/messages/${replyTo}`);
          const outgoing = original.from.address === account.address;
          this.values.to = (outgoing ? original.to : [original.from]).map(addressText).join(', ');
          this.values.subject = /^re:/i.test(original.subject) ? original.subject : `Re: ${original.subject}`;
          this.values.in_reply_to = original.message_id_header;
          text = `${text}${quoted(original)}`;
        }
        this.values.text = text;
      }
      this.ready = true;
    } catch (error) {
      this.error = errorText(error);
      this.accounts ??= [];
    }
  }

  private async signaturesOf(accountId: string): Promise<Signature[]> {
    return read<Signature[]>(`/mail/accounts/${accountId}/signatures?per_page=100`);
  }

  private body() {
    return { to: parseAddresses(this.values.to), cc: parseAddresses(this.values.cc), subject: this.values.subject, text: this.values.text, in_reply_to: this.values.in_reply_to, attachments: this.files.map((file) => ({ file_key: file.file_key, filename: file.filename })) };
  }

  /** Saves the draft now (starting it the first time); one save at a time, in order. */
  private save(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.saving = this.saving.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      this.status = 'Saving…';
      try {
        if (this.draftId) await write('PUT', `/mail/drafts/${this.draftId}`, this.body());
        else this.draftId = (await write<Draft>('POST', '/mail/drafts', { account_id: this.accountId, ...this.body() })).id;
        this.status = 'Draft saved';
        this.error = null;
      } catch (error) {
        this.dirty = true;
        this.status = 'Not saved';
        this.error = errorText(error);
      }
    });
    return this.saving;
  }

  private edited(field: keyof MailCompose['values'], value: string): void {
    this.values = { ...this.values, [field]: value };
    this.dirty = true;
    this.status = 'Editing…';
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.save(), SAVE_AFTER_MS);
  }

  /** Another account to write from: its default signature replaces the one in the text. */
  /** Where an attached file's bytes go: a signed link of the account's uploads. */
  private readonly prepare = async (file: File): Promise<UploadTarget & Record<string, unknown>> => {
    const upload = await write<Upload>('POST', `/mail/accounts/${this.accountId}/uploads`, uploadFileBody(file));
    return { ...signedUploadTarget(upload.upload.url, file), file_key: upload.file_key };
  };

  /** Once a file's bytes are in, the draft names it (saved at once). */
  private readonly finish = async (file: File, prepared: Record<string, unknown>): Promise<void> => {
    this.files = [...this.files, { file_key: String(prepared.file_key), filename: file.name, size_bytes: file.size }];
    this.dirty = true;
    await this.save();
  };

  private removeFile(key: string): void {
    this.files = this.files.filter((file) => file.file_key !== key);
    this.dirty = true;
    void this.save();
  }

  private async switchAccount(accountId: string): Promise<void> {
    const before = this.accounts!.find((account) => account.id === this.accountId);
    const old = signatureBlock(this.signatures.find((signature) => signature.id === before?.signature_id));
    this.accountId = accountId;
    // Files were uploaded into the other account's files: attach them again from this one.
    this.files = [];
    this.signatures = await this.signaturesOf(accountId);
    const account = this.accounts!.find((each) => each.id === accountId);
    const fresh = signatureBlock(this.signatures.find((signature) => signature.id === account?.signature_id));
    const text = old && this.values.text.includes(old) ? this.values.text.replace(old, fresh) : this.values.text;
    if (this.draftId) {
      // A draft belongs to its account: start it again in the new one.
      await write('DELETE', `/mail/drafts/${this.draftId}`).catch(() => undefined);
      this.draftId = null;
    }
    this.edited('text', text);
  }

  private async send(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    this.busy = true;
    try {
      this.dirty = true;
      await this.save();
      if (!this.draftId || this.dirty) throw new Error(this.error ?? 'The draft could not be saved');
      // The signature is in the text already: none is added again.
      await write('POST', `/mail/drafts/${this.draftId}/send`, { signature_id: null });
      this.draftId = null;
      toast('Message sent', 'success');
      await navigate(`/accounts/${this.accountId}/sent`);
    } catch (error) {
      this.error = errorText(error);
    } finally {
      this.busy = false;
    }
  }

  private async discard(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.dirty = false;
    await this.saving;
    try {
      if (this.draftId) await write('DELETE', `/mail/drafts/${this.draftId}`);
      this.draftId = null;
      toast('Draft discarded', 'neutral');
      await navigate(`/accounts/${this.accountId}/inbox`);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  protected override render() {
    if (!this.ready) return this.error ? html`<h1>New message</h1><p class="error" role="alert">${this.error}</p>` : html`<wa-spinner label="Loading"></wa-spinner>`;
    const input = (field: keyof MailCompose['values']) => (event: Event) => this.edited(field, (event.target as HTMLInputElement).value);
    return html`<h1>${this.values.in_reply_to ? 'Reply' : 'New message'}</h1>
      <form class="fields" aria-label="Compose" @submit=${(event: SubmitEvent) => this.send(event)}>
        <label for="from">From</label>
        <select id="from" @change=${(event: Event) => this.switchAccount((event.target as HTMLSelectElement).value)}>
          ${this.accounts!.map((account) => html`<option value=${account.id} ?selected=${account.id === this.accountId}>${addressText({ address: account.address, name: account.display_name })}</option>`)}
        </select>
        <label for="to">To</label>
        <input id="to" .value=${this.values.to} @input=${input('to')} autocomplete="off" placeholder="name@example.com, Name <name@example.com>" />
        <label for="cc">Cc</label>
        <input id="cc" .value=${this.values.cc} @input=${input('cc')} autocomplete="off" />
        <label for="subject">Subject</label>
        <input id="subject" .value=${this.values.subject} @input=${input('subject')} maxlength="998" />
        <label for="text">Message</label>
        <textarea id="text" rows="14" .value=${this.values.text} @input=${input('text')}></textarea>
        ${this.files.length ? html`<ul class="plain files" aria-label="Attachments">${this.files.map((file) => html`<li>${fileText(file)} <button type="button" @click=${() => this.removeFile(file.file_key)}>Remove<span class="wpk-visually-hidden"> ${file.filename}</span></button></li>`)}</ul>` : nothing}
        <wpk-upload label="Attach files" multiple .prepare=${this.prepare} .finish=${this.finish}></wpk-upload>
        <p class="muted" role="status" aria-live="polite">${this.status}</p>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <div class="actions">
          <button type="submit" ?disabled=${this.busy}>Send</button>
          <button type="button" @click=${() => this.discard()}>Discard</button>
        </div>
      </form>`;
  }
}

customElements.define('mail-compose', MailCompose);
