import { AppRoot, html, listScreen } from '@wpk/ui';
import './screens/account.js';
import './screens/accounts.js';
import './screens/bill.js';
import './screens/bills.js';
import './screens/budgets.js';
import './screens/reports.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class FinanceApp extends AppRoot {
  protected readonly label = 'Finance';
  protected readonly sections = [
    { path: '/', label: 'Bills' },
    { path: '/accounts', label: 'Chart of accounts' },
    { path: '/budgets', label: 'Budgets' },
    { path: '/reports', label: 'Reports' },
  ];
  protected readonly screens = [
    { path: '/bills/new', render: () => html`<finance-bill></finance-bill>` },
    { path: '/bills/:bill_id', render: ({ bill_id }: Record<string, string>) => html`<finance-bill bill-id=${bill_id}></finance-bill>` },
    { path: '/accounts/new', render: () => html`<finance-account></finance-account>` },
    { path: '/accounts/:account_id', render: ({ account_id }: Record<string, string>) => html`<finance-account account-id=${account_id}></finance-account>` },
    listScreen('/accounts', 'finance-accounts'),
    { path: '/budgets/:budget_id', render: ({ budget_id }: Record<string, string>) => html`<finance-budgets budget-id=${budget_id}></finance-budgets>` },
    { path: '/budgets', render: () => html`<finance-budgets></finance-budgets>` },
    { path: '/reports/:report', render: ({ report }: Record<string, string>, path: string) => html`<finance-reports report=${report} .path=${path}></finance-reports>` },
    { path: '/reports', render: (_params: Record<string, string>, path: string) => html`<finance-reports .path=${path}></finance-reports>` },
    listScreen('/', 'finance-bills'),
  ];
}

customElements.define('finance-app', FinanceApp);
