import type { AppMigration } from '@wpk/sdk';
import { createFilesTables } from './0001-create-files-tables.js';
import { createSweepSchedule } from './0002-sweep-schedule.js';
import { dropMemberDirectory } from './0003-drop-member-directory.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createFilesTables, createSweepSchedule, dropMemberDirectory];
