import { AppRoot, html } from '@wpk/ui';
import './screens/bases.js';
import './screens/grid.js';
import './screens/record.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class TablesApp extends AppRoot {
  protected readonly label = 'Tables';
  protected readonly sections = [{ path: '/', label: 'Bases' }];
  protected readonly screens = [
    { path: '/tables/records/:record_id', render: (params: Record<string, string>) => html`<tables-record .recordId=${params.record_id}></tables-record>` },
    { path: '/tables/:table_id', render: (params: Record<string, string>) => html`<tables-grid .tableId=${params.table_id}></tables-grid>` },
    { path: '/', render: () => html`<tables-bases></tables-bases>` },
  ];
}

customElements.define('tables-app', TablesApp);
