import type { AppMigration } from '@wpk/sdk';
import { createMailTables } from './0001-create-mail-tables.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createMailTables];
