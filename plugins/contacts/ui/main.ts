/**
 * The Contacts app's front-end: the address book (a searchable list, each contact's page, a form
 * to add or edit one), vCard import, and the member's suggestions to accept or dismiss. It runs in
 * the workspace shell's sandboxed frame and reaches the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './contacts-app.js';

await mountApp('contacts-app');
