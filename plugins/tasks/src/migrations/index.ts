import type { AppMigration } from '@wpk/sdk';
import { createTasksTables } from './0001-create-tasks-tables.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createTasksTables];
