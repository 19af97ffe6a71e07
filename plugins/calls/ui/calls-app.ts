import { AppRoot, html } from '@wpk/ui';
import './screens/list.js';
import './screens/call.js';
import './screens/start.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class CallsApp extends AppRoot {
  protected readonly label = 'Calls';
  protected readonly sections = [
    { path: '/', label: 'My calls' },
    { path: '/new', label: 'Start a call' },
  ];
  protected readonly screens = [
    { path: '/calls/:call_id', render: ({ call_id }: Record<string, string>) => html`<calls-call call-id=${call_id}></calls-call>` },
    { path: '/new', render: () => html`<calls-start></calls-start>` },
    { path: '/', render: () => html`<calls-list></calls-list>` },
  ];
}

customElements.define('calls-app', CallsApp);
