import type { AppMigration } from '@wpk/sdk';
import { createFeedsTables } from './0001-create-feeds-tables.js';
import { createPolls } from './0002-polls.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createFeedsTables, createPolls];
