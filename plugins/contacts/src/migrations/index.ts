import type { AppMigration } from '@wpk/sdk';
import { createContacts } from './0001-create-contacts.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createContacts];
