import { AppRoot, html } from '@wpk/ui';
import './screens/approvals.js';
import './screens/mine.js';
import './screens/out.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class LeavesApp extends AppRoot {
  protected readonly label = 'Leaves';
  protected readonly sections = [
    { path: '/', label: 'My time off' },
    { path: '/approvals', label: 'Approvals' },
    { path: '/out', label: 'Who is out' },
  ];
  protected readonly screens = [
    { path: '/approvals', render: () => html`<leaves-approvals></leaves-approvals>` },
    { path: '/out', render: () => html`<leaves-out></leaves-out>` },
    { path: '/', render: () => html`<leaves-mine></leaves-mine>` },
  ];
}

customElements.define('leaves-app', LeavesApp);
