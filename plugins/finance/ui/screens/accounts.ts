import { ListScreen, appLink, html, navigate, routeQuery, type ListTable, type TableColumn } from '@wpk/ui';
import { ACCOUNT_TYPES, type Account } from '../api.js';
import { screenStyles } from '../styles.js';

export const TYPE_LABELS: Record<Account['type'], string> = { asset: 'Asset', liability: 'Liability', equity: 'Equity', income: 'Income', expense: 'Expense' };

/** `/accounts` (`?type=`): the chart of accounts by code, searchable by code or name. */
export class FinanceAccounts extends ListScreen<Account> {
  static override styles = [ListScreen.styles, ...screenStyles];
  protected readonly heading = 'Chart of accounts';
  protected override readonly newLink = { path: '/accounts/new', label: 'New account' };

  constructor() {
    super();
    this.path = '/accounts';
  }

  protected readonly columns: TableColumn<Account>[] = [
    { key: 'code', label: 'Code', render: (account) => appLink(`/accounts/${account.id}`, account.code) },
    { key: 'name', label: 'Name', render: (account) => account.display_name ? html`${account.display_name} <span class="muted">(${account.name})</span>` : account.name },
    { key: 'type', label: 'Type', render: (account) => `${TYPE_LABELS[account.type]}${account.is_contra ? ' (contra)' : ''}${account.is_bank ? ', bank' : ''}` },
    { key: 'normal_balance', label: 'Normal side', render: (account) => (account.normal_balance === 'debit' ? 'Debit' : 'Credit') },
  ];

  /** The type `?type=` asks for, when it is one. */
  private type(): Account['type'] | null {
    const wanted = routeQuery(this.path).get('type');
    return ACCOUNT_TYPES.includes(wanted as Account['type']) ? (wanted as Account['type']) : null;
  }

  protected override intro() {
    const type = this.type();
    return html`<div class="filter">
      <label for="type">Type</label>
      <select id="type" @change=${(event: Event) => {
        const value = (event.target as HTMLSelectElement).value;
        void navigate(value ? `/accounts?${new URLSearchParams({ type: value })}` : '/accounts', { replace: true });
      }}>
        <option value="" ?selected=${!type}>Every type</option>
        ${ACCOUNT_TYPES.map((value) => html`<option value=${value} ?selected=${type === value}>${TYPE_LABELS[value]}</option>`)}
      </select>
    </div>`;
  }

  protected table(): ListTable<Account> {
    const type = this.type();
    return {
      caption: type ? `${TYPE_LABELS[type]} accounts by code` : 'Every account by code',
      source: type ? `/finance/accounts?${new URLSearchParams({ type })}` : '/finance/accounts',
      filter: 'Search by code or name',
      perPage: 50,
      empty: 'No account matches.',
    };
  }
}

customElements.define('finance-accounts', FinanceAccounts);
