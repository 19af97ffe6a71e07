import type { AppMigration } from '@wpk/sdk';
import { createFilesTables } from './0001-create-files-tables.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createFilesTables];
