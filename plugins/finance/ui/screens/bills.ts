import { appLink, LitElement, css, html, kit, navigate, nothing, routeQuery, type TableColumn } from '@wpk/ui';
import { STATUS_LABELS, day, money, type Bill, type BillStatus } from '../api.js';
import { listStyles, screenStyles } from '../styles.js';

const STATUSES = Object.keys(STATUS_LABELS) as BillStatus[];

/** What a bill is called in a list: its first item's description, else its memo's first line. */
export function billName(bill: Bill): string {
  return bill.items.find((item) => item.description)?.description ?? (bill.memo.split('\n')[0] || 'Bill');
}

/** `/` (`?status=`): the bills, newest date first, filtered by state. */
export class FinanceBills extends LitElement {
  static override properties = { path: { attribute: false } };
  declare path: string;

  constructor() {
    super();
    this.path = '/';
  }

  static override styles = [
    ...screenStyles,
    listStyles,
    css`
      .amount { text-align: right; white-space: nowrap; }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Bills');
  }

  protected override updated(changed: Map<string, unknown>): void {
    // Same screen, another state filter: the table loads its new source.
    if (changed.has('path') && changed.get('path') !== undefined) void this.renderRoot.querySelector('wpk-data-table')?.reload();
  }

  private readonly columns: TableColumn<Bill>[] = [
    { key: 'date', label: 'Date', render: (bill) => day(bill.date) },
    { key: 'name', label: 'Bill', render: (bill) => appLink(`/bills/${bill.id}`, billName(bill)) },
    { key: 'status', label: 'State', render: (bill) => STATUS_LABELS[bill.status] },
    { key: 'due_date', label: 'Due', render: (bill) => day(bill.due_date) },
    { key: 'total', label: 'Total', render: (bill) => html`<span class="amount">${money(bill.total, bill.currency)}</span>` },
  ];

  private filter(event: Event): void {
    const status = (event.target as HTMLSelectElement).value;
    const tag = routeQuery(this.path).get('tag');
    const query = new URLSearchParams({ ...(status ? { status } : {}), ...(tag ? { tag } : {}) });
    void navigate(query.size ? `/?${query}` : '/', { replace: true });
  }

  protected override render() {
    const wanted = routeQuery(this.path).get('status');
    const status = STATUSES.includes(wanted as BillStatus) ? (wanted as BillStatus) : null;
    const tag = routeQuery(this.path).get('tag')?.trim() || null;
    const query = new URLSearchParams({ ...(status ? { status } : {}), ...(tag ? { tag } : {}) });
    const source = query.size ? `/finance/bills?${query}` : '/finance/bills';
    return html`<header>
        <h1>Bills</h1>
        <span class="new">${appLink('/bills/new', 'New bill')}</span>
      </header>
      <div class="filter">
        <label for="status">State</label>
        <select id="status" @change=${this.filter}>
          <option value="" ?selected=${!status}>Every state</option>
          ${STATUSES.map((value) => html`<option value=${value} ?selected=${status === value}>${STATUS_LABELS[value]}</option>`)}
        </select>
        ${tag ? html`<span>Tagged <strong>${tag}</strong> (${appLink(status ? `/?${new URLSearchParams({ status })}` : '/', 'every tag')})</span>` : nothing}
      </div>
      <wpk-data-table caption=${`${status ? `${STATUS_LABELS[status]} bills` : 'Every bill'}${tag ? ` tagged ${tag}` : ''}, newest first`} .source=${source} .columns=${this.columns}
        empty=${status ? `No ${STATUS_LABELS[status].toLowerCase()} bill.` : 'No bill yet: record the first one.'}></wpk-data-table>`;
  }
}

customElements.define('finance-bills', FinanceBills);
