import { appLink, LitElement, css, errorText, html, kit, navigate, nothing, routeQuery } from '@wpk/ui';
import {
  accountLabel,
  allAccounts,
  amount,
  day,
  today,
  type Account,
  type AgingRow,
  type AgingTotals,
  type BudgetRow,
  type BudgetTotals,
  type LedgerAccount,
  type LedgerRow,
  type LedgerTotals,
  type Report,
  type TrialBalanceRow,
  type TrialBalanceTotals,
} from '../api.js';
import './chart.js';
import { screenStyles, tableStyles } from '../styles.js';

const REPORTS = [
  { slug: 'budget-vs-actual', label: 'Budget vs actual' },
  { slug: 'ap-aging', label: 'Payables aging' },
  { slug: 'trial-balance', label: 'Trial balance' },
  { slug: 'general-ledger', label: 'General ledger' },
] as const;
type Slug = (typeof REPORTS)[number]['slug'];

/** The parameters each report takes (the API's query), kept in the screen's path so a report is a link. */
const PARAMS: Record<Slug, string[]> = {
  'budget-vs-actual': ['dimension', 'from', 'to'],
  'ap-aging': ['as_of'],
  'trial-balance': ['as_of'],
  'general-ledger': ['account_id', 'from', 'to'],
};

const AGING_BUCKETS = [
  { key: 'current', label: 'Current' },
  { key: 'days_1_30', label: '1–30 days' },
  { key: 'days_31_60', label: '31–60 days' },
  { key: 'days_61_90', label: '61–90 days' },
  { key: 'days_over_90', label: 'Over 90 days' },
] as const;

type Loaded =
  | { slug: 'budget-vs-actual'; rows: BudgetRow[]; totals: BudgetTotals }
  | { slug: 'ap-aging'; rows: AgingRow[]; totals: AgingTotals }
  | { slug: 'trial-balance'; rows: TrialBalanceRow[]; totals: TrialBalanceTotals }
  | { slug: 'general-ledger'; rows: LedgerRow[]; totals: LedgerTotals; account: LedgerAccount };

/** Every row of a report (it answers pages of rows, the totals over all of them on each page). */
async function loadReport<Row, Totals>(slug: string, query: URLSearchParams): Promise<Report<Row, Totals> & { rows: Row[] }> {
  const rows: Row[] = [];
  let url: string | null = `/finance/reports/${slug}?${new URLSearchParams({ ...Object.fromEntries(query), per_page: '100' })}`;
  let first: Report<Row, Totals> | null = null;
  while (url) {
    const page: Report<Row, Totals> = await kit().client.request<Report<Row, Totals>>('GET', url);
    first ??= page;
    rows.push(...page.data);
    url = page.links.next ?? null;
  }
  return { ...first!, rows };
}

const num = (value: string): number => Number(value);

/** `/reports/{report}`: budget vs actual and payables aging (each with a chart), the trial balance and an account's general ledger. */
export class FinanceReports extends LitElement {
  static override properties = {
    report: { type: String },
    path: { attribute: false },
    loaded: { state: true },
    accounts: { state: true },
    error: { state: true },
  };
  declare report: string;
  declare path: string;
  declare loaded: Loaded | null;
  declare accounts: Account[];
  declare error: string | null;
  private ticket = 0;

  constructor() {
    super();
    this.report = 'budget-vs-actual';
    this.path = '/reports';
    this.loaded = null;
    this.accounts = [];
    this.error = null;
  }

  static override styles = [
    ...screenStyles,
    tableStyles,
    css`
      h2 { margin-top: var(--wpk-space-4); }
      nav ul { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); list-style: none; margin: 0 0 var(--wpk-space-3); padding: 0; }
      nav a { display: inline-block; padding: var(--wpk-space-1) var(--wpk-space-3); border: 1px solid var(--wpk-color-border-strong); border-radius: var(--wpk-radius-pill); text-decoration: none; color: var(--wpk-color-text); }
      nav a[aria-current='page'] { background: var(--wpk-color-brand-fill); border-color: var(--wpk-color-brand-fill); color: var(--wpk-color-on-brand-fill); font-weight: var(--wpk-font-weight-bold); }
      form { display: flex; flex-wrap: wrap; gap: var(--wpk-space-3); align-items: end; margin-bottom: var(--wpk-space-3); }
      tfoot th, tfoot td { font-weight: var(--wpk-font-weight-bold); border-top: 2px solid var(--wpk-color-border-strong); }
      .over { color: var(--wpk-color-danger); }
    `,
  ];

  private get slug(): Slug {
    return REPORTS.some((entry) => entry.slug === this.report) ? (this.report as Slug) : 'budget-vs-actual';
  }

  /** The report's query: the parameters it takes, from the screen's path. */
  private query(): URLSearchParams {
    const given = routeQuery(this.path);
    const query = new URLSearchParams();
    for (const name of PARAMS[this.slug]) {
      const value = given.get(name);
      if (value) query.set(name, value);
    }
    return query;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.loadAccounts();
  }

  protected override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('path') || changed.has('report')) void this.load();
  }

  private async loadAccounts(): Promise<void> {
    try {
      this.accounts = await allAccounts();
    } catch {
      // Without finance.accounts.read the general ledger's account list stays empty; the other reports need none.
    }
  }

  private async load(): Promise<void> {
    const ticket = ++this.ticket;
    const slug = this.slug;
    void kit().bridge.title(REPORTS.find((entry) => entry.slug === slug)!.label);
    this.error = null;
    this.loaded = null;
    const query = this.query();
    if (slug === 'general-ledger' && !query.get('account_id')) return;
    try {
      const report = await loadReport<never, never>(slug, query);
      if (ticket !== this.ticket) return;
      this.loaded = { slug, rows: report.rows, totals: report.totals, ...(slug === 'general-ledger' ? { account: (report as unknown as { account: LedgerAccount }).account } : {}) } as Loaded;
    } catch (error) {
      if (ticket === this.ticket) this.error = errorText(error);
    }
  }

  private apply(event: Event): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const query = new URLSearchParams();
    for (const name of PARAMS[this.slug]) {
      const value = String((form.querySelector(`[name="${name}"]`) as HTMLInputElement | null)?.value ?? '').trim();
      if (value) query.set(name, value);
    }
    const search = query.toString();
    void navigate(`/reports/${this.slug}${search ? `?${search}` : ''}`, { replace: true });
  }

  private parameters() {
    const given = this.query();
    const date = (name: string, label: string, help?: string) =>
      html`<wa-input name=${name} label=${label} type="date" .value=${given.get(name) ?? ''}>${help ? html`<span slot="hint">${help}</span>` : nothing}</wa-input>`;
    const fields = {
      'budget-vs-actual': html`<div class="field">
          <label for="dimension">Per</label>
          <select id="dimension" name="dimension">
            ${['department', 'location', 'project'].map((value) => html`<option value=${value} ?selected=${(given.get('dimension') ?? 'department') === value}>${value[0]!.toUpperCase()}${value.slice(1)}</option>`)}
          </select>
        </div>
        ${date('from', 'From')} ${date('to', 'To')}`,
      'ap-aging': date('as_of', 'As of', 'Default: today'),
      'trial-balance': date('as_of', 'As of', 'Default: everything posted'),
      'general-ledger': html`<div class="field">
          <label for="ledger-account">Account</label>
          <select id="ledger-account" name="account_id">
            <option value="" ?selected=${!given.get('account_id')}>Choose an account</option>
            ${this.accounts.map((account) => html`<option value=${account.id} ?selected=${given.get('account_id') === account.id}>${accountLabel(account)}</option>`)}
          </select>
        </div>
        ${date('from', 'From')} ${date('to', 'To')}`,
    };
    return html`<form @submit=${this.apply} aria-label="Report parameters">
      ${fields[this.slug]}
      <wa-button type="submit" variant="brand">Show report</wa-button>
    </form>`;
  }

  private budgetVsActual(rows: BudgetRow[], totals: BudgetTotals) {
    if (rows.length === 0) return html`<p class="muted" role="status">No budget in this period: add one under ${appLink('/budgets', 'Budgets')}.</p>`;
    const name = (row: BudgetRow) => `${row.code} ${row.name}${row.value ? ` · ${row.value}` : ''}`;
    return html`<finance-bar-chart label=${`Budget vs actual per budget: ${rows.map((row) => `${name(row)}, budget ${amount(row.budget)}, actual ${amount(row.actual)}`).join('; ')}`}
        .categories=${rows.map(name)} .series=${[{ name: 'Budget', values: rows.map((row) => num(row.budget)) }, { name: 'Actual', values: rows.map((row) => num(row.actual)) }]}
        .format=${(value: number) => amount(value.toFixed(2))}></finance-bar-chart>
      <div class="wrap" tabindex="0" role="region" aria-label="Budget vs actual figures">
        <table>
          <caption>Budget vs actual, per ${rows[0]!.dimension}</caption>
          <thead><tr><th scope="col">Account</th><th scope="col">${rows[0]!.dimension[0]!.toUpperCase()}${rows[0]!.dimension.slice(1)}</th><th scope="col">Period</th><th scope="col" class="num">Budget</th><th scope="col" class="num">Actual</th><th scope="col" class="num">Variance</th></tr></thead>
          <tbody>
            ${rows.map(
              (row) => html`<tr>
                <th scope="row">${row.code} ${row.name}</th>
                <td>${row.value ?? 'Every line'}</td>
                <td>${day(row.period_start)} – ${day(row.period_end)}</td>
                <td class="num">${amount(row.budget)}</td>
                <td class="num">${amount(row.actual)}</td>
                <td class=${`num${num(row.variance) < 0 ? ' over' : ''}`}>${amount(row.variance)}${num(row.variance) < 0 ? ' (over)' : ''}</td>
              </tr>`,
            )}
          </tbody>
          <tfoot><tr><th scope="row" colspan="3">Total</th><td class="num">${amount(totals.budget)}</td><td class="num">${amount(totals.actual)}</td><td class="num">${amount(totals.variance)}</td></tr></tfoot>
        </table>
      </div>`;
  }

  private aging(rows: AgingRow[], totals: AgingTotals) {
    if (rows.length === 0) return html`<p class="muted" role="status">Nothing owed: no approved bill is open.</p>`;
    return html`<finance-bar-chart label=${`Payables by age: ${AGING_BUCKETS.map((bucket) => `${bucket.label} ${amount(totals[bucket.key])}`).join('; ')}`}
        .categories=${AGING_BUCKETS.map((bucket) => bucket.label)} .series=${[{ name: 'Owed', values: AGING_BUCKETS.map((bucket) => num(totals[bucket.key])) }]}
        .format=${(value: number) => amount(value.toFixed(2))}></finance-bar-chart>
      <div class="wrap" tabindex="0" role="region" aria-label="Aging figures">
        <table>
          <caption>Approved bills owed per supplier, by days past due (in the ledger’s currency)</caption>
          <thead><tr><th scope="col">Supplier</th><th scope="col" class="num">Bills</th>${AGING_BUCKETS.map((bucket) => html`<th scope="col" class="num">${bucket.label}</th>`)}<th scope="col" class="num">Total</th></tr></thead>
          <tbody>
            ${rows.map(
              (row) => html`<tr>
                <th scope="row">${row.company_mrn ? html`<wpk-mrn-chip mrn=${row.company_mrn}></wpk-mrn-chip>` : 'No supplier given'}</th>
                <td class="num">${row.bills}</td>
                ${AGING_BUCKETS.map((bucket) => html`<td class="num">${amount(row[bucket.key])}</td>`)}
                <td class="num">${amount(row.total)}</td>
              </tr>`,
            )}
          </tbody>
          <tfoot><tr><th scope="row" colspan="2">Total</th>${AGING_BUCKETS.map((bucket) => html`<td class="num">${amount(totals[bucket.key])}</td>`)}<td class="num">${amount(totals.total)}</td></tr></tfoot>
        </table>
      </div>`;
  }

  private trialBalance(rows: TrialBalanceRow[], totals: TrialBalanceTotals) {
    if (rows.length === 0) return html`<p class="muted" role="status">Nothing posted yet: approving a bill posts its entry.</p>`;
    return html`<div class="wrap" tabindex="0" role="region" aria-label="Trial balance figures">
      <table>
        <caption>Trial balance: debits and credits per account ${totals.balance === '0.00' ? '(the books balance)' : ''}</caption>
        <thead><tr><th scope="col">Account</th><th scope="col" class="num">Debit</th><th scope="col" class="num">Credit</th><th scope="col" class="num">Balance (Dr)</th><th scope="col" class="num">Balance (Cr)</th></tr></thead>
        <tbody>
          ${rows.map(
            (row) => html`<tr>
              <th scope="row">${row.code} ${row.name}</th>
              <td class="num">${amount(row.debit)}</td><td class="num">${amount(row.credit)}</td>
              <td class="num">${amount(row.balance_debit)}</td><td class="num">${amount(row.balance_credit)}</td>
            </tr>`,
          )}
        </tbody>
        <tfoot><tr><th scope="row">Total</th><td class="num">${amount(totals.debit)}</td><td class="num">${amount(totals.credit)}</td><td class="num">${amount(totals.balance_debit)}</td><td class="num">${amount(totals.balance_credit)}</td></tr></tfoot>
      </table>
    </div>`;
  }

  private generalLedger(rows: LedgerRow[], totals: LedgerTotals, account: LedgerAccount) {
    return html`<div class="wrap" tabindex="0" role="region" aria-label="General ledger figures">
      <table>
        <caption>General ledger of ${account.code} ${account.name}, running balance on the ${account.normal_balance} side</caption>
        <thead><tr><th scope="col">Date</th><th scope="col">Description</th><th scope="col" class="num">Debit</th><th scope="col" class="num">Credit</th><th scope="col" class="num">Balance</th></tr></thead>
        <tbody>
          ${rows.length === 0 ? html`<tr><td colspan="5" class="muted">Nothing posted to this account in the period.</td></tr>` : nothing}
          ${rows.map(
            (row) => html`<tr>
              <td>${day(row.date)}</td>
              <td>${row.bill_id ? appLink(`/bills/${row.bill_id}`, row.description || 'Bill') : row.description}</td>
              <td class="num">${amount(row.debit)}</td><td class="num">${amount(row.credit)}</td><td class="num">${amount(row.balance)}</td>
            </tr>`,
          )}
        </tbody>
        <tfoot><tr><th scope="row" colspan="2">Total</th><td class="num">${amount(totals.debit)}</td><td class="num">${amount(totals.credit)}</td><td class="num">${amount(totals.balance)}</td></tr></tfoot>
      </table>
    </div>`;
  }

  private body() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p>`;
    if (this.slug === 'general-ledger' && !this.query().get('account_id')) return html`<p class="muted">Choose an account to read its ledger.</p>`;
    const loaded = this.loaded;
    if (!loaded || loaded.slug !== this.slug) return html`<wa-spinner label="Loading the report"></wa-spinner>`;
    switch (loaded.slug) {
      case 'budget-vs-actual':
        return this.budgetVsActual(loaded.rows, loaded.totals);
      case 'ap-aging':
        return this.aging(loaded.rows, loaded.totals);
      case 'trial-balance':
        return this.trialBalance(loaded.rows, loaded.totals);
      case 'general-ledger':
        return this.generalLedger(loaded.rows, loaded.totals, loaded.account);
    }
  }

  protected override render() {
    const slug = this.slug;
    const title = REPORTS.find((entry) => entry.slug === slug)!.label;
    return html`<h1>Reports</h1>
      <nav aria-label="Reports">
        <ul>${REPORTS.map((entry) => html`<li>${appLink(`/reports/${entry.slug}`, entry.label, entry.slug === slug)}</li>`)}</ul>
      </nav>
      <h2>${title}</h2>
      ${slug === 'ap-aging' ? html`<p class="muted">As of ${day(this.query().get('as_of') ?? today())}. The app records no payments yet: every approved bill is open.</p>` : nothing}
      ${this.parameters()}
      ${this.body()}`;
  }
}

customElements.define('finance-reports', FinanceReports);
