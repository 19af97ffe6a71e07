import type { AppMigration } from '@wpk/sdk';
import { createFeedsTables } from './0001-create-feeds-tables.js';
import { createPolls } from './0002-polls.js';
import { createBindings } from './0003-bindings.js';
import { createAudiences } from './0004-audiences.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createFeedsTables, createPolls, createBindings, createAudiences];
