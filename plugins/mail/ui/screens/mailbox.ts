import { LitElement, appLink, css, errorText, html, kit, nothing, screenStyles, toast } from '@wpk/ui';
import { MAIL_STYLES, accounts, addressText, folderLabel, folderMessages, read, threadsOf, write, type Account, type Draft, type Message, type Thread } from '../api.js';
import { LAYOUT_STYLES, sideList } from './side.js';

/**
 * `/` and `/accounts/{account_id}/{folder}`: the side list of accounts and folders, and the folder's
 * messages by conversation, newest first; an unread conversation is bold and says "Unread" to
 * screen readers, and its button marks it read or unread. `drafts` lists the account's drafts.
 */
export class MailMailbox extends LitElement {
  static override properties = { accountId: { attribute: 'account-id' }, folder: {}, accounts: { state: true }, threads: { state: true }, drafts: { state: true }, error: { state: true }, query: { state: true } };
  static override styles = [screenStyles, MAIL_STYLES, LAYOUT_STYLES, css`
    ul.threads { list-style: none; padding: 0; margin: 0; border-top: 1px solid var(--wpk-color-border); }
    ul.threads > li { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: var(--wpk-space-1) var(--wpk-space-3); padding: var(--wpk-space-2); border-bottom: 1px solid var(--wpk-color-border); }
    ul.threads > li.unread { font-weight: var(--wpk-font-weight-bold); background: var(--wpk-color-surface); }
    ul.threads .who, ul.threads .subject { overflow-wrap: anywhere; }
    ul.threads .snippet { color: var(--wpk-color-text-muted); font-weight: var(--wpk-font-weight-normal); overflow-wrap: anywhere; }
    ul.threads .side-actions { display: flex; flex-direction: column; align-items: end; gap: var(--wpk-space-1); }
    .count { font-weight: var(--wpk-font-weight-normal); color: var(--wpk-color-text-muted); }
    form.search { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; margin-bottom: var(--wpk-space-3); }
    form.search label { display: grid; gap: var(--wpk-space-1); flex: 1 1 12rem; font-weight: var(--wpk-font-weight-bold); }
    form.search input { font: inherit; width: 100%; box-sizing: border-box; }
  `];
  declare accountId: string | null;
  declare folder: string | null;
  declare accounts: Account[] | null;
  declare threads: Thread[] | null;
  declare drafts: Draft[] | null;
  declare error: string | null;
  /** What the search box looks for (subject or sender, through the list's `q`); '' lists the whole folder. */
  declare query: string;

  constructor() {
    super();
    this.accountId = null;
    this.folder = null;
    this.accounts = null;
    this.threads = null;
    this.drafts = null;
    this.error = null;
    this.query = '';
  }

  protected override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('accountId') || changed.has('folder')) {
      this.query = '';
      void this.load();
    }
  }

  private get account(): Account | null {
    return this.accounts?.find((account) => account.id === this.accountId) ?? this.accounts?.[0] ?? null;
  }

  private get folderName(): string {
    return this.folder ?? 'inbox';
  }

  private async load(): Promise<void> {
    this.error = null;
    this.threads = null;
    this.drafts = null;
    try {
      this.accounts ??= await accounts();
      const account = this.account;
      void kit().bridge.title(folderLabel(this.folderName));
      if (!account) return;
      if (this.folderName === 'drafts') this.drafts = await read<Draft[]>(`/mail/drafts?account_id=${account.id}&per_page=100`);
      else this.threads = threadsOf(await folderMessages(account.id, this.folderName, this.query));
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private search(event: SubmitEvent): void {
    event.preventDefault();
    this.query = String(new FormData(event.target as HTMLFormElement).get('q') ?? '').trim();
    void this.load();
  }

  private renderSearch(label: string) {
    return html`<form class="search" role="search" aria-label=${`Search ${label}`} @submit=${(event: SubmitEvent) => this.search(event)}>
      <label>Search ${label} by subject or sender<input type="search" name="q" maxlength="200" .value=${this.query} /></label>
      <button type="submit">Search</button>
      ${this.query ? html`<button type="button" @click=${() => { this.query = ''; void this.load(); }}>Clear search</button>` : nothing}
    </form>`;
  }

  /** Marks every message of the conversation read, or every one unread. */
  private async toggle(thread: Thread): Promise<void> {
    const seen = thread.unread > 0;
    try {
      const changed = await Promise.all(thread.messages.filter((message) => message.seen !== seen).map((message) => write<Message>('PATCH', `/mail/accounts/${message.account_id}/messages/${message.id}`, { seen })));
      const byId = new Map(changed.map((message) => [message.id, message]));
      this.threads = threadsOf(this.threads!.flatMap((each) => each.messages).map((message) => byId.get(message.id) ?? message));
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private who(thread: Thread): string {
    const outgoing = ['sent', 'outbox'].includes(this.folderName);
    const names = thread.messages.map((message) => (outgoing ? (message.to[0] ? message.to[0].name || message.to[0].address : '') : message.from.name || message.from.address));
    return [...new Set(names.filter(Boolean))].join(', ') || '(nobody)';
  }

  private renderThread(thread: Thread) {
    const latest = thread.latest;
    const unread = thread.unread > 0;
    const subject = latest.subject || '(no subject)';
    return html`<li class=${unread ? 'unread' : ''}>
      <div>
        <div class="who">${unread ? html`<span class="wpk-visually-hidden">Unread: </span>` : nothing}${this.who(thread)}${thread.messages.length > 1 ? html` <span class="count">(${thread.messages.length})</span>` : nothing}</div>
        <div class="subject">${appLink(`/accounts/${latest.account_id}/${this.folderName}/${latest.id}`, subject)}</div>
        <div class="snippet">${latest.text.slice(0, 140)}</div>
      </div>
      <div class="side-actions">
        <wpk-date value=${latest.received_at ?? latest.sent_at ?? latest.updated_at} format="relative"></wpk-date>
        <button type="button" aria-label=${`${unread ? 'Mark as read' : 'Mark as unread'}: ${subject}`} @click=${() => this.toggle(thread)}>${unread ? 'Mark as read' : 'Mark as unread'}</button>
      </div>
    </li>`;
  }

  private renderList() {
    const account = this.account;
    const label = folderLabel(this.folderName);
    if (!account) return html`<h1>Mail</h1><p class="muted">You have no mailbox yet: an administrator assigns you one, or connect one of your own.</p>`;
    if (this.folderName === 'drafts') {
      if (!this.drafts) return html`<h1>${label}</h1><wa-spinner label="Loading the drafts"></wa-spinner>`;
      return html`<h1>${label}</h1>${this.drafts.length
        ? html`<ul class="threads" aria-label=${`Drafts of ${account.address}`}>${this.drafts.map((draft) => html`<li><div>
            <div class="who">${draft.to.map(addressText).join(', ') || '(no recipient)'}</div>
            <div class="subject">${appLink(`/compose?draft=${draft.id}`, draft.subject || '(no subject)')}</div></div>
            <div class="side-actions"><wpk-date value=${draft.updated_at} format="relative"></wpk-date></div></li>`)}</ul>`
        : html`<p class="muted">No draft.</p>`}`;
    }
    if (!this.threads) return html`<h1>${label}</h1><wa-spinner label="Loading the messages"></wa-spinner>`;
    const unread = this.threads.reduce((sum, thread) => sum + thread.unread, 0);
    return html`<h1>${label}</h1>
      <p class="muted">${account.address}${unread ? ` · ${unread} unread` : ''}</p>
      ${this.renderSearch(label)}
      ${this.query ? html`<p role="status">${this.threads.length ? `Conversations matching “${this.query}”` : `No message in ${label} matches “${this.query}”.`}</p>` : nothing}
      ${this.threads.length
        ? html`<ul class="threads" aria-label=${`Messages in ${label}`}>${this.threads.map((thread) => this.renderThread(thread))}</ul>`
        : this.query ? nothing : html`<p class="muted">No message in ${label}.</p>`}`;
  }

  protected override render() {
    if (this.error) return html`<h1>Mail</h1><p class="error" role="alert">${this.error}</p>`;
    if (!this.accounts) return html`<wa-spinner label="Loading your mailboxes"></wa-spinner>`;
    return html`<div class="layout">${sideList(this.accounts, this.account?.id ?? null, this.folderName)}<section class="main">${this.renderList()}</section></div>`;
  }
}

customElements.define('mail-mailbox', MailMailbox);
