import { AppRoot, html, listScreen, recordScreens } from '@wpk/ui';
import './screens/checklists.js';
import './screens/departments.js';
import './screens/edit.js';
import './screens/import.js';
import './screens/list.js';
import './screens/org-chart.js';
import './screens/worker.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class WorkersApp extends AppRoot {
  protected readonly label = 'Workers';
  protected readonly sections = [
    { path: '/', label: 'Directory' },
    { path: '/org-chart', label: 'Org chart' },
    { path: '/departments', label: 'Departments' },
    { path: '/checklists', label: 'Checklists' },
    { path: '/new', label: 'New worker' },
    { path: '/import', label: 'Import' },
  ];
  protected readonly screens = [
    ...recordScreens('workers', { detail: 'workers-worker', edit: 'workers-edit' }),
    { path: '/org-chart', render: () => html`<workers-org-chart></workers-org-chart>` },
    { path: '/departments', render: () => html`<workers-departments></workers-departments>` },
    { path: '/checklists', render: () => html`<workers-checklists></workers-checklists>` },
    { path: '/import', render: () => html`<workers-import></workers-import>` },
    listScreen('/', 'workers-list'),
  ];
}

customElements.define('workers-app', WorkersApp);
