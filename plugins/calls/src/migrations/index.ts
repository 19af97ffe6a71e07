import type { AppMigration } from '@wpk/sdk';
import { createCallsTables } from './0001-create-calls-tables.js';
import { dropMemberDirectory } from './0002-drop-member-directory.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createCallsTables, dropMemberDirectory];
