import type { AppMigration } from '@wpk/sdk';
import { createTables } from './0001-create-tables.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createTables];
