import { LitElement, css, html, matchRoute, onRoute, sharedStyles } from '@wpk/ui';
import { appLink } from './api.js';
import './screens/account.js';
import './screens/accounts.js';
import './screens/bill.js';
import './screens/bills.js';
import './screens/budgets.js';
import './screens/reports.js';

const SECTIONS = [
  { path: '/', label: 'Bills' },
  { path: '/accounts', label: 'Chart of accounts' },
  { path: '/budgets', label: 'Budgets' },
  { path: '/reports', label: 'Reports' },
];

/** The app's screens by path: the shell hands the path over (deep links) and keeps history. */
export class FinanceApp extends LitElement {
  static override properties = { path: { state: true } };
  declare path: string;
  private stop: (() => void) | null = null;

  constructor() {
    super();
    this.path = '/';
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; max-width: 1100px; margin: 0 auto; padding: var(--wpk-space-3) var(--wpk-space-4) var(--wpk-space-6); }
      nav ul { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2) var(--wpk-space-4); list-style: none; margin: 0 0 var(--wpk-space-4); padding: 0; border-bottom: 1px solid var(--wpk-color-border); }
      nav a { display: inline-block; padding: var(--wpk-space-2) 0; text-decoration: none; color: var(--wpk-color-text); border-bottom: 3px solid transparent; }
      nav a[aria-current='page'] { border-bottom-color: var(--wpk-color-brand); font-weight: var(--wpk-font-weight-bold); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    this.stop = onRoute((path) => {
      this.path = path;
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stop?.();
  }

  private screen() {
    const path = this.path;
    if (matchRoute('/bills/new', path)) return html`<finance-bill></finance-bill>`;
    const bill = matchRoute('/bills/:bill_id', path);
    if (bill) return html`<finance-bill bill-id=${bill.bill_id}></finance-bill>`;
    if (matchRoute('/accounts/new', path)) return html`<finance-account></finance-account>`;
    const account = matchRoute('/accounts/:account_id', path);
    if (account) return html`<finance-account account-id=${account.account_id}></finance-account>`;
    if (matchRoute('/accounts', path)) return html`<finance-accounts></finance-accounts>`;
    const budget = matchRoute('/budgets/:budget_id', path);
    if (budget) return html`<finance-budgets budget-id=${budget.budget_id}></finance-budgets>`;
    if (matchRoute('/budgets', path)) return html`<finance-budgets></finance-budgets>`;
    const report = matchRoute('/reports/:report', path);
    if (report) return html`<finance-reports report=${report.report} .path=${path}></finance-reports>`;
    if (matchRoute('/reports', path)) return html`<finance-reports .path=${path}></finance-reports>`;
    return html`<finance-bills .path=${path}></finance-bills>`;
  }

  protected override render() {
    const first = `/${this.path.split(/[?#]/)[0].split('/')[1] ?? ''}`;
    const current = SECTIONS.some((section) => section.path === first) ? first : '/';
    return html`<nav aria-label="Finance">
        <ul>
          ${SECTIONS.map((section) => html`<li>${appLink(section.path, section.label, section.path === current)}</li>`)}
        </ul>
      </nav>
      <main>${this.screen()}</main>`;
  }
}

customElements.define('finance-app', FinanceApp);
