import type { AppMigration } from '@wpk/sdk';
import { createContacts } from './0001-create-contacts.js';
import { createMailboxCopies } from './0002-mailbox-copies.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createContacts, createMailboxCopies];
