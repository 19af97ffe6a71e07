import { appLink, LitElement, html, kit, navigate, routeQuery, type TableColumn } from '@wpk/ui';
import { ACCOUNT_TYPES, type Account } from '../api.js';
import { listStyles, screenStyles } from '../styles.js';

export const TYPE_LABELS: Record<Account['type'], string> = { asset: 'Asset', liability: 'Liability', equity: 'Equity', income: 'Income', expense: 'Expense' };

/** `/accounts` (`?type=`): the chart of accounts by code, searchable by code or name. */
export class FinanceAccounts extends LitElement {
  static override properties = { path: { attribute: false } };
  declare path: string;

  constructor() {
    super();
    this.path = '/accounts';
  }

  static override styles = [
    ...screenStyles,
    listStyles,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Chart of accounts');
  }

  protected override updated(changed: Map<string, unknown>): void {
    if (changed.has('path') && changed.get('path') !== undefined) void this.renderRoot.querySelector('wpk-data-table')?.reload();
  }

  private readonly columns: TableColumn<Account>[] = [
    { key: 'code', label: 'Code', render: (account) => appLink(`/accounts/${account.id}`, account.code) },
    { key: 'name', label: 'Name', render: (account) => account.display_name ? html`${account.display_name} <span class="muted">(${account.name})</span>` : account.name },
    { key: 'type', label: 'Type', render: (account) => `${TYPE_LABELS[account.type]}${account.is_contra ? ' (contra)' : ''}${account.is_bank ? ', bank' : ''}` },
    { key: 'normal_balance', label: 'Normal side', render: (account) => (account.normal_balance === 'debit' ? 'Debit' : 'Credit') },
  ];

  protected override render() {
    const wanted = routeQuery(this.path).get('type');
    const type = ACCOUNT_TYPES.includes(wanted as Account['type']) ? (wanted as Account['type']) : null;
    return html`<header>
        <h1>Chart of accounts</h1>
        <span class="new">${appLink('/accounts/new', 'New account')}</span>
      </header>
      <div class="filter">
        <label for="type">Type</label>
        <select id="type" @change=${(event: Event) => {
          const value = (event.target as HTMLSelectElement).value;
          void navigate(value ? `/accounts?${new URLSearchParams({ type: value })}` : '/accounts', { replace: true });
        }}>
          <option value="" ?selected=${!type}>Every type</option>
          ${ACCOUNT_TYPES.map((value) => html`<option value=${value} ?selected=${type === value}>${TYPE_LABELS[value]}</option>`)}
        </select>
      </div>
      <wpk-data-table caption=${type ? `${TYPE_LABELS[type]} accounts by code` : 'Every account by code'} .source=${type ? `/finance/accounts?${new URLSearchParams({ type })}` : '/finance/accounts'}
        .columns=${this.columns} filterable filter-label="Search by code or name" per-page="50" empty="No account matches."></wpk-data-table>`;
  }
}

customElements.define('finance-accounts', FinanceAccounts);
