import { AppRoot, html, kit } from '@wpk/ui';
import './screens/certificate.js';
import './screens/envelopes.js';
import './screens/prepare.js';
import './screens/envelope.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class SignApp extends AppRoot {
  protected readonly label = 'Sign';
  protected readonly sections = [
    { path: '/', label: 'Envelopes' },
    { path: '/new', label: 'Prepare an envelope' },
    { path: '/certificate', label: 'Signing certificate', visible: () => kit().member.platform_role !== 'member' },
  ];
  protected readonly screens = [
    { path: '/new', render: () => html`<sign-prepare></sign-prepare>` },
    { path: '/certificate', render: () => html`<sign-certificate></sign-certificate>` },
    { path: '/envelopes/:envelope_id', render: (params: Record<string, string>) => html`<sign-envelope .envelopeId=${params.envelope_id}></sign-envelope>` },
    { path: '/', render: () => html`<sign-envelopes></sign-envelopes>` },
  ];
}

customElements.define('sign-app', SignApp);
