import { LitElement, confirmAction, css, errorText, html, kit, nothing, screenStyles } from '@wpk/ui';
import { MAIL_STYLES, accounts, changePart, partRefusal, read, write, type Account, type BlockedSender, type Filter, type Signature } from '../api.js';

const FIELDS: Record<string, string> = { from: 'From', to: 'To', subject: 'Subject', body: 'Body' };
const OPERATORS: Record<string, string> = { contains: 'contains', equals: 'is', ends_with: 'ends with' };

/** Reads a form's named text field, trimmed. */
const field = (form: HTMLFormElement, name: string): string => String(new FormData(form).get(name) ?? '').trim();

/**
 * `/settings`: an account's signatures (the default one is inserted when writing), its filters
 * (one condition and one action here; the API takes more) and its blocked senders.
 */
export class MailSettings extends LitElement {
  static override properties = { accounts: { state: true }, accountId: { state: true }, signatures: { state: true }, filters: { state: true }, blocked: { state: true }, error: { state: true }, refusal: { state: true } };
  static override styles = [screenStyles, MAIL_STYLES, css`
    section { margin-bottom: var(--wpk-space-5); }
    ul.rows { list-style: none; padding: 0; margin: 0 0 var(--wpk-space-3); }
    ul.rows > li { display: flex; flex-wrap: wrap; justify-content: space-between; gap: var(--wpk-space-2); padding: var(--wpk-space-2) 0; border-bottom: 1px solid var(--wpk-color-border); overflow-wrap: anywhere; }
    ul.rows pre { white-space: pre-wrap; margin: var(--wpk-space-1) 0 0; font-family: var(--wpk-font-sans); color: var(--wpk-color-text-muted); }
    .row { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; }
    .row > div { display: grid; gap: var(--wpk-space-1); }
  `];
  declare accounts: Account[] | null;
  declare accountId: string;
  declare signatures: Signature[];
  declare filters: Filter[];
  declare blocked: BlockedSender[];
  declare error: string | null;
  declare refusal: Record<string, string>;

  constructor() {
    super();
    this.accounts = null;
    this.accountId = '';
    this.signatures = [];
    this.filters = [];
    this.blocked = [];
    this.error = null;
    this.refusal = {};
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Mail settings');
    void this.start();
  }

  private async start(): Promise<void> {
    try {
      this.accounts = await accounts();
      if (this.accounts[0]) await this.choose(this.accounts[0].id);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private get account(): Account | undefined {
    return this.accounts?.find((account) => account.id === this.accountId);
  }

  private async choose(accountId: string): Promise<void> {
    this.accountId = accountId;
    const base = `/mail/accounts/${accountId}`;
    try {
      [this.signatures, this.filters, this.blocked] = await Promise.all([read<Signature[]>(`${base}/signatures?per_page=100`), read<Filter[]>(`${base}/filters?per_page=100`), read<BlockedSender[]>(`${base}/blocked-senders?per_page=100`)]);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  /** Runs a change; its refusal shows under the form it came from (`part`). */
  private act(part: string, run: () => Promise<unknown>, done: string, form?: HTMLFormElement): Promise<void> {
    return changePart(this, part, run, done, form, async () => {
      await this.choose(this.accountId);
      this.accounts = await accounts();
    });
  }

  private refusalOf(part: string) {
    return partRefusal(this, part);
  }

  private renderSignatures() {
    const base = `/mail/accounts/${this.accountId}`;
    const add = (event: SubmitEvent) => {
      event.preventDefault();
      const form = event.target as HTMLFormElement;
      const makeDefault = new FormData(form).get('default') === 'on';
      void this.act('signatures', async () => {
        const signature = await write<Signature>('POST', `${base}/signatures`, { name: field(form, 'name'), text: String(new FormData(form).get('text') ?? '') });
        if (makeDefault) await write('PATCH', base, { signature_id: signature.id });
      }, 'Signature added', form);
    };
    return html`<section aria-labelledby="signatures"><h2 id="signatures">Signatures</h2>
      ${this.signatures.length
        ? html`<ul class="rows" aria-label="Signatures">${this.signatures.map((signature) => {
            const isDefault = this.account?.signature_id === signature.id;
            return html`<li><div><strong>${signature.name}</strong>${isDefault ? ' (default)' : ''}<pre>${signature.text}</pre></div>
              <div class="actions">
                ${isDefault ? nothing : html`<button type="button" @click=${() => this.act('signatures', () => write('PATCH', base, { signature_id: signature.id }), `${signature.name} is the default`)}>Make default<span class="wpk-visually-hidden">: ${signature.name}</span></button>`}
                <button type="button" @click=${async () => (await confirmAction({ title: `Delete ${signature.name}?`, message: 'It is no longer inserted.', confirm_label: 'Delete', danger: true })) && this.act('signatures', () => write('DELETE', `${base}/signatures/${signature.id}`), 'Signature deleted')}>Delete<span class="wpk-visually-hidden">: ${signature.name}</span></button>
              </div></li>`;
          })}</ul>`
        : html`<p class="muted">No signature yet.</p>`}
      <form class="fields" aria-label="New signature" @submit=${add}>
        <label for="signature-name">Name</label><input id="signature-name" name="name" required maxlength="100" />
        <label for="signature-text">Text</label><textarea id="signature-text" name="text" rows="3" maxlength="10000"></textarea>
        <div><input id="signature-default" name="default" type="checkbox" checked /> <label for="signature-default">Insert it in new messages (default)</label></div>
        ${this.refusalOf('signatures')}
        <button type="submit">Add signature</button>
      </form></section>`;
  }

  private renderFilters() {
    const base = `/mail/accounts/${this.accountId}`;
    const add = (event: SubmitEvent) => {
      event.preventDefault();
      const form = event.target as HTMLFormElement;
      const action = field(form, 'action');
      const body = {
        name: field(form, 'name'),
        match: 'all',
        conditions: [{ field: field(form, 'field'), operator: field(form, 'operator'), value: field(form, 'value') }],
        actions: [action === 'move' ? { type: 'move', folder: field(form, 'folder') } : { type: action }],
      };
      void this.act('filters', () => write('POST', `${base}/filters`, body), 'Filter added', form);
    };
    return html`<section aria-labelledby="filters"><h2 id="filters">Filters</h2>
      ${this.filters.length
        ? html`<ul class="rows" aria-label="Filters">${this.filters.map((filter) => html`<li><div><strong>${filter.name}</strong>
            <div class="muted">${filter.conditions.map((condition) => `${FIELDS[condition.field] ?? condition.field} ${OPERATORS[condition.operator] ?? condition.operator} “${condition.value}”`).join(filter.match === 'any' ? ' or ' : ' and ')}
              → ${filter.actions.map((action) => (action.type === 'move' ? `move to ${action.folder}` : action.type.replace('_', ' '))).join(', ')}</div></div>
            <button type="button" @click=${() => this.act('filters', () => write('DELETE', `${base}/filters/${filter.id}`), 'Filter deleted')}>Delete<span class="wpk-visually-hidden">: ${filter.name}</span></button></li>`)}</ul>`
        : html`<p class="muted">No filter yet: incoming mail stays in the Inbox.</p>`}
      <form class="fields" aria-label="New filter" @submit=${add}>
        <label for="filter-name">Name</label><input id="filter-name" name="name" required maxlength="100" />
        <div class="row">
          <div><label for="filter-field">When</label><select id="filter-field" name="field">${Object.entries(FIELDS).map(([value, label]) => html`<option value=${value}>${label}</option>`)}</select></div>
          <div><label for="filter-operator">Test</label><select id="filter-operator" name="operator">${Object.entries(OPERATORS).map(([value, label]) => html`<option value=${value}>${label}</option>`)}</select></div>
          <div><label for="filter-value">Value</label><input id="filter-value" name="value" required maxlength="200" /></div>
        </div>
        <div class="row">
          <div><label for="filter-action">Then</label><select id="filter-action" name="action">
            <option value="move">Move to folder</option><option value="mark_seen">Mark as read</option><option value="flag">Flag</option><option value="discard">Discard</option></select></div>
          <div><label for="filter-folder">Folder (for a move)</label><input id="filter-folder" name="folder" maxlength="40" /></div>
        </div>
        ${this.refusalOf('filters')}
        <button type="submit">Add filter</button>
      </form></section>`;
  }

  private renderBlocked() {
    const base = `/mail/accounts/${this.accountId}`;
    const add = (event: SubmitEvent) => {
      event.preventDefault();
      const form = event.target as HTMLFormElement;
      void this.act('blocked', () => write('POST', `${base}/blocked-senders`, { address: field(form, 'address') }), 'Sender blocked', form);
    };
    return html`<section aria-labelledby="blocked"><h2 id="blocked">Blocked senders</h2>
      ${this.blocked.length
        ? html`<ul class="rows" aria-label="Blocked senders">${this.blocked.map((blocked) => html`<li><span>${blocked.address}</span>
            <button type="button" @click=${() => this.act('blocked', () => write('DELETE', `${base}/blocked-senders/${blocked.id}`), 'Sender unblocked')}>Unblock<span class="wpk-visually-hidden">: ${blocked.address}</span></button></li>`)}</ul>`
        : html`<p class="muted">Nobody is blocked.</p>`}
      <form class="fields" aria-label="Block a sender" @submit=${add}>
        <label for="blocked-address">Address, or @domain for a whole domain</label><input id="blocked-address" name="address" required maxlength="320" />
        ${this.refusalOf('blocked')}
        <button type="submit">Block</button>
      </form></section>`;
  }

  protected override render() {
    if (this.error) return html`<h1>Mail settings</h1><p class="error" role="alert">${this.error}</p>`;
    if (!this.accounts) return html`<wa-spinner label="Loading your mailboxes"></wa-spinner>`;
    if (!this.accounts.length) return html`<h1>Mail settings</h1><p class="muted">You have no mailbox yet.</p>`;
    return html`<h1>Mail settings</h1>
      <form class="fields" aria-label="Account"><label for="account">Account</label>
        <select id="account" @change=${(event: Event) => this.choose((event.target as HTMLSelectElement).value)}>
          ${this.accounts.map((account) => html`<option value=${account.id} ?selected=${account.id === this.accountId}>${account.address}</option>`)}
        </select></form>
      ${this.renderSignatures()} ${this.renderFilters()} ${this.renderBlocked()}`;
  }
}

customElements.define('mail-settings', MailSettings);
