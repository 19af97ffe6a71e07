import { AppRoot, listScreen, recordScreens } from '@wpk/ui';
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
    ...recordScreens('companies', { detail: 'companies-company', edit: 'companies-edit' }),
    listScreen('/', 'companies-list'),
  ];
}

customElements.define('companies-app', CompaniesApp);
