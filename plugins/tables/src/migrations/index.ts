import type { AppMigration } from '@wpk/sdk';
import { createTables } from './0001-create-tables.js';
import { createSources } from './0002-sources.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createTables, createSources];
