import { AppRoot, html } from '@wpk/ui';
import './screens/envelopes.js';
import './screens/prepare.js';
import './screens/envelope.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class SignApp extends AppRoot {
  protected readonly label = 'Sign';
  protected readonly sections = [
    { path: '/', label: 'Envelopes' },
    { path: '/new', label: 'Prepare an envelope' },
  ];
  protected readonly screens = [
    { path: '/new', render: () => html`<sign-prepare></sign-prepare>` },
    { path: '/envelopes/:envelope_id', render: (params: Record<string, string>) => html`<sign-envelope .envelopeId=${params.envelope_id}></sign-envelope>` },
    { path: '/', render: () => html`<sign-envelopes></sign-envelopes>` },
  ];
}

customElements.define('sign-app', SignApp);
