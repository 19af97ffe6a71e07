import { LitElement, appLink, confirmAction, css, errorText, html, kit, navigate, nothing, screenStyles, toast } from '@wpk/ui';
import { MAIL_STYLES, accounts, addressText, fileText, folderLabel, folderMessages, read, threadOf, write, type Account, type Attachment, type Download, type Message } from '../api.js';
import { LAYOUT_STYLES, sideList } from './side.js';
import '../html-body.js';

/**
 * `/accounts/{account_id}/{folder}/{message_id}`: a conversation, oldest message first (the
 * message's folder and Sent searched for the rest of it). Opening it marks its unread messages
 * read; Reply, Mark as unread and Move to Trash act on it. An HTML body is shown sanitised
 * (`mail-html-body`), a plain one as its text.
 */
export class MailThread extends LitElement {
  static override properties = { accountId: { attribute: 'account-id' }, folder: {}, messageId: { attribute: 'message-id' }, accounts: { state: true }, messages: { state: true }, error: { state: true } };
  static override styles = [screenStyles, MAIL_STYLES, LAYOUT_STYLES, css`
    article header { display: flex; flex-wrap: wrap; justify-content: space-between; gap: var(--wpk-space-1) var(--wpk-space-3); }
    article .from { font-weight: var(--wpk-font-weight-bold); overflow-wrap: anywhere; }
    article .to { overflow-wrap: anywhere; }
    h1 { overflow-wrap: anywhere; }
  `];
  declare accountId: string;
  declare folder: string;
  declare messageId: string;
  declare accounts: Account[] | null;
  declare messages: Message[] | null;
  declare error: string | null;

  constructor() {
    super();
    this.accounts = null;
    this.messages = null;
    this.error = null;
  }

  protected override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('messageId') || changed.has('accountId')) void this.load();
  }

  private async load(): Promise<void> {
    this.error = null;
    this.messages = null;
    try {
      this.accounts ??= await accounts();
      const base = `/mail/accounts/${this.accountId}/messages`;
      const message = await read<Message>(`${base}/${this.messageId}`);
      void kit().bridge.title(message.subject || '(no subject)');
      const folders = [...new Set([message.folder, 'sent', 'inbox'])];
      const around = (await Promise.all(folders.map((folder) => folderMessages(this.accountId, folder)))).flat();
      const thread = threadOf(message, around);
      // Opening the conversation reads it.
      const read_ = await Promise.all(thread.map((each) => (each.seen ? each : write<Message>('PATCH', `${base}/${each.id}`, { seen: true }))));
      this.messages = read_;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async markUnread(): Promise<void> {
    const latest = this.messages![this.messages!.length - 1];
    try {
      await write('PATCH', `/mail/accounts/${this.accountId}/messages/${latest.id}`, { seen: false });
      toast('Marked as unread', 'success');
      await navigate(`/accounts/${this.accountId}/${this.folder}`);
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async trash(): Promise<void> {
    const inFolder = this.messages!.filter((message) => message.folder === this.folder);
    try {
      if (this.folder === 'trash') {
        if (!(await confirmAction({ title: 'Delete for good?', message: 'The conversation leaves the Trash and cannot be brought back.', confirm_label: 'Delete', danger: true }))) return;
        await Promise.all(inFolder.map((message) => write('DELETE', `/mail/accounts/${this.accountId}/messages/${message.id}`)));
      } else {
        await Promise.all(inFolder.map((message) => write('PATCH', `/mail/accounts/${this.accountId}/messages/${message.id}`, { folder: 'trash' })));
      }
      toast(this.folder === 'trash' ? 'Deleted' : 'Moved to Trash', 'success');
      await navigate(`/accounts/${this.accountId}/${this.folder}`);
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /**
   * Asks for a five-minute link to the file, reads its bytes (the link needs no cookie) and hands
   * them to the browser as a download named as the file (the frame's sandbox allows downloads).
   */
  private async download(message: Message, file: Attachment): Promise<void> {
    try {
      const link = await read<Download>(`/mail/accounts/${message.account_id}/messages/${message.id}/attachments/${file.id}`);
      const answer = await fetch(link.url);
      if (!answer.ok) throw new Error(`The file could not be read (${answer.status})`);
      const url = URL.createObjectURL(await answer.blob());
      const anchor = Object.assign(document.createElement('a'), { href: url, download: file.filename, hidden: true });
      this.renderRoot.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private renderMessage(message: Message) {
    return html`<article class="card" aria-label=${`From ${message.from.name || message.from.address}`}>
      <header>
        <div><div class="from">${addressText(message.from)}</div>
          <div class="to muted">To ${message.to.map(addressText).join(', ')}${message.cc.length ? ` · Cc ${message.cc.map(addressText).join(', ')}` : ''}</div></div>
        <div class="muted">${message.folder !== this.folder ? html`${folderLabel(message.folder)} · ` : nothing}<wpk-date value=${message.received_at ?? message.sent_at ?? message.updated_at} format="datetime"></wpk-date></div>
      </header>
      ${message.attachments.length ? html`<ul class="plain files" aria-label="Attachments">${message.attachments.map((file) => html`<li><button type="button" @click=${() => this.download(message, file)}>Download<span class="wpk-visually-hidden"> ${file.filename}</span></button> ${fileText(file)}</li>`)}</ul>` : nothing}
      ${message.html ? html`<mail-html-body .source=${message.html}></mail-html-body>` : html`<pre class="body">${message.text}</pre>`}
    </article>`;
  }

  private renderThread() {
    if (this.error) return html`<h1>Message</h1><p class="error" role="alert">${this.error}</p>`;
    if (!this.messages) return html`<wa-spinner label="Loading the conversation"></wa-spinner>`;
    const latest = this.messages[this.messages.length - 1];
    return html`<p class="back">${appLink(`/accounts/${this.accountId}/${this.folder}`, `Back to ${folderLabel(this.folder)}`)}</p>
      <h1>${latest.subject || '(no subject)'}</h1>
      <div class="actions">
        ${appLink(`/compose?account=${this.accountId}&reply=${latest.id}`, 'Reply')}
        <button type="button" @click=${() => this.markUnread()}>Mark as unread</button>
        <button type="button" @click=${() => this.trash()}>${this.folder === 'trash' ? 'Delete for good' : 'Move to Trash'}</button>
      </div>
      <section aria-label="Conversation">${this.messages.map((message) => this.renderMessage(message))}</section>`;
  }

  protected override render() {
    if (!this.accounts) return this.error ? html`<h1>Message</h1><p class="error" role="alert">${this.error}</p>` : html`<wa-spinner label="Loading your mailboxes"></wa-spinner>`;
    return html`<div class="layout">${sideList(this.accounts, this.accountId, this.folder)}<section class="main">${this.renderThread()}</section></div>`;
  }
}

customElements.define('mail-thread', MailThread);
