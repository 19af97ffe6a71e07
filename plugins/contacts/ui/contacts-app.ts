import { AppRoot, html } from '@wpk/ui';
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
    { path: '/new', render: () => html`<contacts-edit></contacts-edit>` },
    { path: '/contacts/:contact_id/edit', render: ({ contact_id }: Record<string, string>) => html`<contacts-edit record-id=${contact_id}></contacts-edit>` },
    { path: '/contacts/:contact_id', render: ({ contact_id }: Record<string, string>) => html`<contacts-contact record-id=${contact_id}></contacts-contact>` },
    { path: '/suggestions', render: () => html`<contacts-suggestions></contacts-suggestions>` },
    { path: '/import', render: () => html`<contacts-import></contacts-import>` },
    { path: '/', render: (_params: Record<string, string>, path: string) => html`<contacts-list .path=${path}></contacts-list>` },
  ];
}

customElements.define('contacts-app', ContactsApp);
