import { AppRoot, html } from '@wpk/ui';
import './screens/board.js';
import './screens/deal.js';
import './screens/lead-forms.js';
import './screens/leads.js';
import './screens/products.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class CrmApp extends AppRoot {
  protected readonly label = 'CRM';
  protected readonly sections = [
    { path: '/', label: 'Pipeline' },
    { path: '/leads', label: 'Leads' },
    { path: '/products', label: 'Products' },
    { path: '/lead-forms', label: 'Web forms' },
  ];
  protected readonly screens = [
    { path: '/deals/:deal_id', render: ({ deal_id }: Record<string, string>) => html`<crm-deal deal-id=${deal_id}></crm-deal>` },
    { path: '/leads', render: () => html`<crm-leads></crm-leads>` },
    { path: '/products', render: () => html`<crm-products></crm-products>` },
    { path: '/lead-forms', render: () => html`<crm-lead-forms></crm-lead-forms>` },
    { path: '/', render: () => html`<crm-board></crm-board>` },
  ];
}

customElements.define('crm-app', CrmApp);
