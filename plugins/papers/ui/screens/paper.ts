import { errorText, formatDate, html, kit, nothing, LitElement, memberColor, memberMrn, saveDownload, screenStyles, toast, type PickedMember } from '@wpk/ui';
import type { CommentThreadsApi, ThreadComment, WpkCommentThreads } from '@wpk/ui/editor';
import { api, paperImages, PAPERS_STYLES, type Department, type Link, type PaperWithContent, type Shares } from '../api.js';
import { suggestionRights } from './suggestions.js';

type ShareRow = Shares['shares'][number];
/** The levels that comment. */
const COMMENTERS = ['comment', 'edit', 'owner'];
type Signer = { name: string; email: string };

/**
 * `/papers/:paper_id`: the paper in the collaborative editor (loaded on demand: `@wpk/ui/editor`),
 * its comment threads beside it (`<wpk-comment-threads>`: those at comment, edit or owner start one
 * on a selection, reply, resolve and reopen; they reload when the paper's channel says a comment
 * changed; `?comment={id}`, a comment mention's link, opens that thread and selects its range), its title, Export (Markdown, HTML, Word or PDF, downloaded as a file named by the title), the
 * Share dialog (its owner: a member or a department at a level, and "Anyone with the link can view",
 * an anonymous link whose URL is shown to copy), and Request signatures (one who may edit: members
 * and people by name and e-mail).
 */
export class PapersPaper extends LitElement {
  static override properties = {
    paperId: { attribute: false },
    commentId: { attribute: false },
    paper: { state: true },
    ready: { state: true },
    error: { state: true },
    shares: { state: true },
    departments: { state: true },
    link: { state: true },
    shareError: { state: true },
    members: { state: true },
    signers: { state: true },
    signError: { state: true },
  };
  static override styles = [screenStyles, PAPERS_STYLES];
  declare paperId: string;
  /** The comment whose thread opens (a mention's link: `?comment={id}`), or null. */
  declare commentId: string | null;
  declare paper: PaperWithContent | null;
  declare ready: boolean;
  declare error: string | null;
  declare shares: ShareRow[];
  declare departments: Department[];
  declare link: Link | null;
  declare shareError: string | null;
  declare members: PickedMember[];
  declare signers: Signer[];
  declare signError: string | null;
  private images: ReturnType<typeof paperImages> | null = null;

  constructor() {
    super();
    this.commentId = null;
    this.paper = null;
    this.ready = false;
    this.error = null;
    this.shares = [];
    this.departments = [];
    this.link = null;
    this.shareError = null;
    this.members = [];
    this.signers = [];
    this.signError = null;
  }

  private threads: { paperId: string; api: CommentThreadsApi } | null = null;

  /** The paper's comment routes for `<wpk-comment-threads>` (the same object while the paper is open). */
  private commentsApi(paperId: string): CommentThreadsApi {
    if (this.threads?.paperId !== paperId) {
      this.threads = {
        paperId,
        api: {
          list: async () => (await api<ThreadComment[]>('GET', `/papers/${paperId}/comments`)).data,
          create: (input) => api('POST', `/papers/${paperId}/comments`, input),
          update: (commentId, input) => api('PATCH', `/papers/comments/${commentId}`, input),
          remove: (commentId) => api('DELETE', `/papers/comments/${commentId}`),
        },
      };
    }
    return this.threads.api;
  }

  override updated(): void {
    // The threads select their ranges in the editor beside them.
    const threads = this.renderRoot.querySelector<WpkCommentThreads>('wpk-comment-threads');
    if (threads) threads.editor = this.renderRoot.querySelector('wpk-collab-editor');
  }

  private dialog(id: string): HTMLDialogElement {
    return this.renderRoot.querySelector<HTMLDialogElement>(`#${id}`)!;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.paper = (await api<PaperWithContent>('GET', `/papers/${this.paperId}`)).data;
      void kit().bridge.title(this.paper.title);
      await import('@wpk/ui/editor');
      this.ready = true;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  /** The Share dialog: the paper's shares and the departments one may name (the app's copy of Workers'). */
  private async openShare(): Promise<void> {
    try {
      this.shares = (await api<Shares>('GET', `/papers/${this.paperId}/shares`)).data.shares;
      this.departments = (await api<Department[]>('GET', '/papers/departments', undefined, { per_page: 100 })).data;
      this.shareError = null;
      this.dialog('share').showModal();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /** Adds (or changes the level of) a member's or a department's share: the whole list is PUT. */
  private async share(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const member = (form.elements.namedItem('member') as HTMLInputElement).value.trim();
    const department = (form.elements.namedItem('department') as HTMLSelectElement).value;
    const level = (form.elements.namedItem('level') as HTMLSelectElement).value;
    const added = [...(member ? [{ principal_type: 'member', principal_id: member, level }] : []), ...(department ? [{ principal_type: 'department', principal_id: department, level }] : [])];
    if (added.length === 0) {
      this.shareError = 'Choose a member or a department to share with';
      return;
    }
    try {
      const kept = this.shares.filter((share) => !added.some((one) => one.principal_type === share.principal_type && one.principal_id === share.principal_id));
      this.shares = (await api<Shares>('PUT', `/papers/${this.paperId}/shares`, { shares: [...kept, ...added] })).data.shares;
      this.shareError = null;
      toast('Shared', 'success');
      form.reset();
    } catch (error) {
      this.shareError = errorText(error);
    }
  }

  /** "Anyone with the link can view": an anonymous view link, expiring on the day chosen (else the longest the workspace allows). */
  private async makeLink(): Promise<void> {
    const day = this.renderRoot.querySelector<HTMLInputElement>('#link-expiry')!.value;
    try {
      this.link = (await api<Link>('POST', `/papers/${this.paperId}/links`, { level: 'view', anonymous: true, ...(day ? { expires_at: new Date(`${day}T23:59:59`).toISOString() } : {}) })).data;
      this.shareError = null;
    } catch (error) {
      this.shareError = errorText(error);
    }
  }

  private async copyLink(): Promise<void> {
    const input = this.renderRoot.querySelector<HTMLInputElement>('#link-url')!;
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      toast('Link copied', 'success');
    } catch {
      toast('Select the link and copy it', 'neutral');
    }
  }

  private describe(share: ShareRow): string {
    if (share.principal_type === 'department') return `Department ${this.departments.find((one) => one.id === share.principal_id)?.name ?? share.principal_id}`;
    if (share.principal_type === 'role') return `Role ${share.principal_id}`;
    return `Member ${share.principal_id}`;
  }

  /** Request signatures: the members picked and the people added by name and e-mail sign the paper (printed to PDF) in the Sign app. */
  private async requestSignatures(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const message = (form.elements.namedItem('message') as HTMLTextAreaElement).value;
    const signers = [...this.members.map((member) => ({ member_mrn: memberMrn(member.id) })), ...this.signers.map((signer) => ({ name: signer.name, email: signer.email }))];
    try {
      await api('POST', `/papers/${this.paperId}/signature-requests`, { signers, ...(message.trim() ? { message } : {}) });
      this.dialog('signatures').close();
      this.members = [];
      this.signers = [];
      this.signError = null;
      form.reset();
      toast('Sent for signature: the envelope is in the Sign app', 'success');
    } catch (error) {
      this.signError = errorText(error);
    }
  }

  private addSigner(): void {
    const name = this.renderRoot.querySelector<HTMLInputElement>('#signer-name')!;
    const email = this.renderRoot.querySelector<HTMLInputElement>('#signer-email')!;
    this.signers = [...this.signers, { name: name.value.trim(), email: email.value.trim() }];
    name.value = '';
    email.value = '';
  }

  private async download(format: 'markdown' | 'html' | 'docx' | 'pdf'): Promise<void> {
    try {
      await saveDownload(`/papers/${this.paperId}/export?format=${format}`, `${this.paper?.title ?? 'paper'}.${format === 'markdown' ? 'md' : format}`);
      this.renderRoot.querySelector('details.export')?.removeAttribute('open');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    if (this.error) return html`<p role="alert">${this.error}</p>`;
    if (!this.paper) return html`<p>Loading…</p>`;
    const paper = this.paper;
    const me = kit().member;
    // One who may only suggest writes on a fork (suggestions.ts): the live document is never editable for them.
    const rights = suggestionRights(paper);
    const transport = {
      channel: `papers/papers/${paper.id}`,
      load: async () => {
        const document = (await api<{ update: string; level: string }>('GET', `/papers/${paper.id}/document`)).data;
        return { update: document.update, editable: (document.level === 'edit' || document.level === 'owner') && rights.edit };
      },
      send: async (update: string) => void (await api('POST', `/papers/${paper.id}/updates`, { update })),
      event: (name: string) => {
        if (name.startsWith('comment.')) void this.renderRoot.querySelector<WpkCommentThreads>('wpk-comment-threads')?.reload();
      },
    };
    this.images ??= paperImages(paper.id);
    return html`
      <div class="row heading">
        <h1>${paper.title}</h1>
        <details class="export">
          <summary>Export</summary>
          <div class="menu">
            <button type="button" class="secondary" @click=${() => this.download('markdown')}>Markdown (.md)</button>
            <button type="button" class="secondary" @click=${() => this.download('html')}>HTML (.html)</button>
            <button type="button" class="secondary" @click=${() => this.download('docx')}>Word (.docx)</button>
            <button type="button" class="secondary" @click=${() => this.download('pdf')}>PDF (.pdf)</button>
          </div>
        </details>
      </div>
      ${this.ready
        ? html`<div class="with-comments">
            <wpk-collab-editor ?suggesting=${rights.suggest && !rights.edit} .transport=${transport} .user=${{ id: me.id, name: me.name, color: memberColor(me.id) }} .findMembers=${(query: string) => kit().bridge.findMembers(query)} .images=${this.images} label=${paper.title}></wpk-collab-editor>
            <wpk-comment-threads .api=${this.commentsApi(paper.id)} member-id=${me.id} comment=${this.commentId ?? nothing} ?commenter=${COMMENTERS.includes(paper.level)} ?moderator=${paper.level === 'owner'}></wpk-comment-threads>
          </div>
          <papers-suggestions .paper=${paper}></papers-suggestions>`
        : html`<p>Loading the editor…</p>`}
      ${paper.level === 'owner' ? this.renderShare() : ''}
      ${paper.level === 'owner' || paper.level === 'edit' ? this.renderSignatures() : ''}
    `;
  }

  private renderShare() {
    const link = this.link;
    return html`<button type="button" class="secondary" @click=${this.openShare}>Share</button>
      <dialog id="share" aria-labelledby="share-title">
        <h2 id="share-title">Share</h2>
        ${this.shares.length ? html`<ul class="plain" aria-label="Shared with">${this.shares.map((share) => html`<li>${this.describe(share)}: ${share.level}</li>`)}</ul>` : html`<p class="muted">Not shared yet.</p>`}
        <form @submit=${this.share}>
          <label>Member id <input name="member" /></label>
          <label>Department
            <select name="department">
              <option value="">None</option>
              ${this.departments.map((department) => html`<option value=${department.id}>${department.name}</option>`)}
            </select>
          </label>
          <label>Access
            <select name="level"><option value="view">View</option><option value="comment">Comment</option><option value="edit" selected>Edit</option></select>
          </label>
          <div class="actions"><button type="submit">Share</button></div>
        </form>
        <fieldset>
          <legend>Anyone with the link can view</legend>
          <label>Expires on (optional) <input id="link-expiry" type="date" /></label>
          <div class="actions"><button type="button" class="secondary" @click=${this.makeLink}>Create link</button></div>
          ${link
            ? html`<label>Link to copy <input id="link-url" readonly .value=${link.url ?? ''} /></label>
                <p class="muted">${link.expires_at ? html`Expires ${formatDate(link.expires_at, { locale: kit().locale, timeZone: kit().timeZone, style: 'datetime' })}` : 'Does not expire'}; shown this once.</p>
                <div class="actions"><button type="button" class="secondary" @click=${this.copyLink}>Copy link</button></div>`
            : ''}
        </fieldset>
        ${this.shareError ? html`<p role="alert" class="error">${this.shareError}</p>` : ''}
        <div class="actions"><button type="button" class="secondary" @click=${() => this.dialog('share').close()}>Close</button></div>
      </dialog>`;
  }

  private renderSignatures() {
    return html`<button type="button" class="secondary" @click=${() => { this.signError = null; this.dialog('signatures').showModal(); }}>Request signatures</button>
      <dialog id="signatures" aria-labelledby="signatures-title">
        <form novalidate @submit=${this.requestSignatures}>
          <h2 id="signatures-title">Request signatures</h2>
          <wpk-member-picker label="Members who sign" multiple .value=${this.members} @change=${(event: Event) => { this.members = (event.target as HTMLElement & { value: PickedMember[] }).value; }}></wpk-member-picker>
          <fieldset>
            <legend>People outside the workspace</legend>
            ${this.signers.length ? html`<ul class="plain" aria-label="Other signers">${this.signers.map((signer, index) => html`<li>${signer.name} &lt;${signer.email}&gt; <button type="button" class="secondary" aria-label=${`Remove ${signer.name}`} @click=${() => { this.signers = this.signers.filter((_, at) => at !== index); }}>Remove</button></li>`)}</ul>` : ''}
            <label>Name <input id="signer-name" maxlength="200" /></label>
            <label>E-mail <input id="signer-email" type="email" maxlength="320" /></label>
            <div class="actions"><button type="button" class="secondary" @click=${this.addSigner}>Add signer</button></div>
          </fieldset>
          <label>Message <textarea name="message" maxlength="2000"></textarea></label>
          ${this.signError ? html`<p role="alert" class="error">${this.signError}</p>` : ''}
          <div class="actions">
            <button type="button" class="secondary" @click=${() => this.dialog('signatures').close()}>Cancel</button>
            <button type="submit">Send for signature</button>
          </div>
        </form>
      </dialog>`;
  }
}

customElements.define('papers-paper', PapersPaper);
