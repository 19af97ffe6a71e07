import { ListScreen, appLink, css, html, navigate, nothing, routeQuery, type ListTable, type TableColumn } from '@wpk/ui';
import { STATUS_LABELS, day, money, type Bill, type BillStatus } from '../api.js';
import { screenStyles } from '../styles.js';

const STATUSES = Object.keys(STATUS_LABELS) as BillStatus[];

/** What a bill is called in a list: its first item's description, else its memo's first line. */
export function billName(bill: Bill): string {
  return bill.items.find((item) => item.description)?.description ?? (bill.memo.split('\n')[0] || 'Bill');
}

/** `/` (`?status=`, `?tag=`): the bills, newest date first, filtered by state and tag. */
export class FinanceBills extends ListScreen<Bill> {
  static override styles = [
    ListScreen.styles,
    ...screenStyles,
    css`
      .amount { text-align: right; white-space: nowrap; }
    `,
  ];
  protected readonly heading = 'Bills';
  protected override readonly newLink = { path: '/bills/new', label: 'New bill' };

  protected readonly columns: TableColumn<Bill>[] = [
    { key: 'date', label: 'Date', render: (bill) => day(bill.date) },
    { key: 'name', label: 'Bill', render: (bill) => appLink(`/bills/${bill.id}`, billName(bill)) },
    { key: 'status', label: 'State', render: (bill) => STATUS_LABELS[bill.status] },
    { key: 'due_date', label: 'Due', render: (bill) => day(bill.due_date) },
    { key: 'total', label: 'Total', render: (bill) => html`<span class="amount">${money(bill.total, bill.currency)}</span>` },
  ];

  /** The state and the tag the path asks for (an unknown state is none). */
  private wanted(): { status: BillStatus | null; tag: string | null } {
    const query = routeQuery(this.path);
    const status = query.get('status');
    return { status: STATUSES.includes(status as BillStatus) ? (status as BillStatus) : null, tag: query.get('tag')?.trim() || null };
  }

  private filter(event: Event): void {
    const status = (event.target as HTMLSelectElement).value;
    const tag = routeQuery(this.path).get('tag');
    const query = new URLSearchParams({ ...(status ? { status } : {}), ...(tag ? { tag } : {}) });
    void navigate(query.size ? `/?${query}` : '/', { replace: true });
  }

  protected override intro() {
    const { status, tag } = this.wanted();
    return html`<div class="filter">
      <label for="status">State</label>
      <select id="status" @change=${this.filter}>
        <option value="" ?selected=${!status}>Every state</option>
        ${STATUSES.map((value) => html`<option value=${value} ?selected=${status === value}>${STATUS_LABELS[value]}</option>`)}
      </select>
      ${tag ? html`<span>Tagged <strong>${tag}</strong> (${appLink(status ? `/?${new URLSearchParams({ status })}` : '/', 'every tag')})</span>` : nothing}
    </div>`;
  }

  protected table(): ListTable<Bill> {
    const { status, tag } = this.wanted();
    const query = new URLSearchParams({ ...(status ? { status } : {}), ...(tag ? { tag } : {}) });
    return {
      caption: `${status ? `${STATUS_LABELS[status]} bills` : 'Every bill'}${tag ? ` tagged ${tag}` : ''}, newest first`,
      source: query.size ? `/finance/bills?${query}` : '/finance/bills',
      empty: status ? `No ${STATUS_LABELS[status].toLowerCase()} bill.` : 'No bill yet: record the first one.',
    };
  }
}

customElements.define('finance-bills', FinanceBills);
