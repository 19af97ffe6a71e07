import { AppRoot, html, listScreen, recordScreens } from '@wpk/ui';
import './screens/contact.js';
import './screens/edit.js';
import './screens/import.js';
import './screens/list.js';
import './screens/suggestions.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class ContactsApp extends AppRoot {
  protected readonly label = 'Contacts';
  protected readonly sections = [
    { path: '/', label: 'Contacts' },
    { path: '/suggestions', label: 'Suggestions' },
    { path: '/import', label: 'Import' },
  ];
  protected readonly screens = [
    ...recordScreens('contacts', { detail: 'contacts-contact', edit: 'contacts-edit' }),
    { path: '/suggestions', render: () => html`<contacts-suggestions></contacts-suggestions>` },
    { path: '/import', render: () => html`<contacts-import></contacts-import>` },
    listScreen('/', 'contacts-list'),
  ];
}

customElements.define('contacts-app', ContactsApp);
