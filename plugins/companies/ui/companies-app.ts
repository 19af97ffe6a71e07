import { AppRoot, html } from '@wpk/ui';
import './screens/company.js';
import './screens/edit.js';
import './screens/list.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class CompaniesApp extends AppRoot {
  protected readonly label = 'Companies';
  protected readonly sections = [
    { path: '/', label: 'Companies' },
    { path: '/new', label: 'New company' },
  ];
  protected readonly screens = [
    { path: '/new', render: () => html`<companies-edit></companies-edit>` },
    { path: '/companies/:company_id/edit', render: ({ company_id }: Record<string, string>) => html`<companies-edit record-id=${company_id}></companies-edit>` },
    { path: '/companies/:company_id', render: ({ company_id }: Record<string, string>) => html`<companies-company record-id=${company_id}></companies-company>` },
    { path: '/', render: () => html`<companies-list></companies-list>` },
  ];
}

customElements.define('companies-app', CompaniesApp);
