import { AppRoot, css, html, kit } from '@wpk/ui';
import './screens/mailbox.js';
import './screens/thread.js';
import './screens/compose.js';
import './screens/settings.js';
import './screens/admin.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class MailApp extends AppRoot {
  static override styles = [AppRoot.styles, css`:host { --wpk-app-width: 1400px; }`];
  protected readonly label = 'Mail';
  protected readonly sections = [
    { path: '/', label: 'Mail' },
    { path: '/compose', label: 'Compose' },
    { path: '/settings', label: 'Settings' },
    { path: '/admin', label: 'Administration', visible: () => kit().member.platform_role !== 'member' },
  ];
  protected readonly screens = [
    { path: '/accounts/:account_id/:folder/:message_id', render: ({ account_id, folder, message_id }: Record<string, string>) => html`<mail-thread account-id=${account_id} folder=${folder} message-id=${message_id}></mail-thread>` },
    { path: '/accounts/:account_id/:folder', render: ({ account_id, folder }: Record<string, string>) => html`<mail-mailbox account-id=${account_id} folder=${folder}></mail-mailbox>` },
    { path: '/compose', render: (_params: Record<string, string>, path: string) => html`<mail-compose .path=${path}></mail-compose>` },
    { path: '/settings', render: () => html`<mail-settings></mail-settings>` },
    { path: '/admin', render: () => html`<mail-admin></mail-admin>` },
    { path: '/', render: () => html`<mail-mailbox></mail-mailbox>` },
  ];
}

customElements.define('mail-app', MailApp);
