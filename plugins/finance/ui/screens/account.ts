import { appLink, LitElement, css, errorText, html, kit, navigate, nothing, toast, type FormSchema, type WpkSchemaForm } from '@wpk/ui';
import { ACCOUNT_TYPES, accountLabel, allAccounts, type Account } from '../api.js';
import { TYPE_LABELS } from './accounts.js';
import { screenStyles } from '../styles.js';

/** The parent field's choice for a top-level account. */
const NO_PARENT = 'None (a top-level account)';

/**
 * A new account: the bounds are the API's (`POST /finance/accounts`). The normal side follows the
 * type (and contra). The parent is chosen by its label (code and name) from the chart as read.
 */
const newAccount = (chart: Account[]): FormSchema => ({
  required: ['code', 'name', 'type'],
  properties: {
    code: { type: 'string', title: 'Code', minLength: 1, maxLength: 20, description: 'Letters, digits, ".", "_" and "-"; unique in the chart.' },
    name: { type: 'string', title: 'Name', minLength: 1, maxLength: 200 },
    type: { type: 'string', title: 'Type', enum: [...ACCOUNT_TYPES], default: 'expense' },
    ...(chart.length ? { parent_id: { type: 'string', title: 'Parent account', enum: [NO_PARENT, ...chart.map(accountLabel)], default: NO_PARENT, description: 'One of the same type; it groups this one in the chart and its reports.' } } : {}),
    description: { type: 'string', title: 'Description', maxLength: 1000, 'x-widget': 'textarea' },
    is_contra: { type: 'boolean', title: 'Contra account (its normal side is the other one)' },
    is_bank: { type: 'boolean', title: 'Bank account (assets only)' },
  },
});

/** What the API lets change on an account (`PUT /finance/accounts/{id}`): its display name and the unified-view flag. */
const EDIT_ACCOUNT: FormSchema = {
  properties: {
    display_name: { type: 'string', title: 'Display name', maxLength: 200, description: 'Shown instead of the name; empty: the name.' },
    show_in_unified: { type: 'boolean', title: 'Show in the unified view' },
  },
};

/** `/accounts/new` and `/accounts/{id}`: add an account; read one and set what the API lets change. */
export class FinanceAccount extends LitElement {
  static override properties = { accountId: { attribute: 'account-id' }, account: { state: true }, parent: { state: true }, chart: { state: true }, chartRead: { state: true }, error: { state: true } };
  declare accountId: string;
  declare account: Account | null;
  declare parent: Account | null;
  /** The chart, for the new account's parent (empty while it loads, or without the right to list it). */
  declare chart: Account[];
  /** The chart was read (or could not be): the new account's form can show. */
  declare chartRead: boolean;
  declare error: string | null;

  constructor() {
    super();
    this.accountId = '';
    this.account = null;
    this.parent = null;
    this.chart = [];
    this.chartRead = false;
    this.error = null;
  }

  static override styles = [
    ...screenStyles,
    css`
      dl { display: grid; grid-template-columns: minmax(7rem, max-content) minmax(0, 1fr); gap: var(--wpk-space-2) var(--wpk-space-4); margin: 0; }
      dt { color: var(--wpk-color-text-muted); }
      dd { margin: 0; overflow-wrap: anywhere; }
    `,
  ];

  protected override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('accountId')) void this.load();
  }

  private async load(): Promise<void> {
    this.error = null;
    this.account = null;
    this.parent = null;
    if (!this.accountId) {
      void kit().bridge.title('New account');
      try {
        this.chart = await allAccounts();
      } catch {
        // Without the chart the form offers no parent: the account goes at the top level.
        this.chart = [];
      }
      this.chartRead = true;
      return;
    }
    try {
      const account = (await kit().client.request<{ data: Account }>('GET', `/finance/accounts/${encodeURIComponent(this.accountId)}`)).data;
      this.account = account;
      void kit().bridge.title(accountLabel(account));
      if (account.parent_id) this.parent = (await kit().client.request<{ data: Account }>('GET', `/finance/accounts/${account.parent_id}`)).data;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async create(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    const body = { ...event.detail };
    // Unticked flags are the API's defaults: only a ticked one is sent.
    if (body.is_contra === false) delete body.is_contra;
    if (body.is_bank === false) delete body.is_bank;
    const parent = this.chart.find((account) => accountLabel(account) === body.parent_id);
    if (parent) body.parent_id = parent.id;
    else delete body.parent_id;
    try {
      const account = (await kit().client.request<{ data: Account }>('POST', '/finance/accounts', { body })).data;
      toast(`Account ${accountLabel(account)} added`, 'success');
      await navigate('/accounts', { replace: true });
    } catch (error) {
      form.fail(error);
    }
  }

  private async saveAccount(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    const display = String(event.detail.display_name ?? '').trim();
    try {
      this.account = (await kit().client.request<{ data: Account }>('PUT', `/finance/accounts/${this.account!.id}`, { body: { display_name: display || null, show_in_unified: event.detail.show_in_unified === true } })).data;
      form.submitting = false;
      toast('Account saved', 'success');
    } catch (error) {
      form.fail(error);
    }
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p><p>${appLink('/accounts', 'Back to the chart')}</p>`;
    if (!this.accountId) {
      if (!this.chartRead) return html`<wa-spinner label="Loading the chart"></wa-spinner>`;
      return html`<p class="back">${appLink('/accounts', '← Chart of accounts')}</p>
        <h1>New account</h1>
        <wpk-schema-form .schema=${newAccount(this.chart)} submit-label="Add account" @wpk-submit=${this.create}></wpk-schema-form>`;
    }
    const account = this.account;
    if (!account) return html`<wa-spinner label="Loading the account"></wa-spinner>`;
    return html`<p class="back">${appLink('/accounts', '← Chart of accounts')}</p>
      <h1>${accountLabel(account)}</h1>
      <dl>
        <dt>Name</dt><dd>${account.name}</dd>
        <dt>Type</dt><dd>${TYPE_LABELS[account.type]}${account.is_contra ? ' (contra)' : ''}${account.is_bank ? ', bank account' : ''}</dd>
        <dt>Normal side</dt><dd>${account.normal_balance === 'debit' ? 'Debit' : 'Credit'}</dd>
        ${this.parent ? html`<dt>Parent</dt><dd>${appLink(`/accounts/${this.parent.id}`, accountLabel(this.parent))}</dd>` : nothing}
        ${account.system_role ? html`<dt>Posting role</dt><dd>${account.system_role.replace(/_/g, ' ')}</dd>` : nothing}
        ${account.description ? html`<dt>Description</dt><dd>${account.description}</dd>` : nothing}
        <dt>Ledger</dt><dd>${appLink(`/reports/general-ledger?${new URLSearchParams({ account_id: account.id })}`, 'General ledger of this account')}</dd>
      </dl>
      <h2>Edit</h2>
      <p class="muted">The code, name and type stay as recorded (posted lines refer to them); the display name and the unified-view flag can change.</p>
      <wpk-schema-form .schema=${EDIT_ACCOUNT} .value=${{ display_name: account.display_name ?? '', show_in_unified: account.show_in_unified }} submit-label="Save account" @wpk-submit=${this.saveAccount}></wpk-schema-form>`;
  }
}

customElements.define('finance-account', FinanceAccount);
