import type { AppMigration } from '@wpk/sdk';
import { createTasksTables } from './0001-create-tasks-tables.js';
import { distributionKeys } from './0002-distribution-keys.js';
import { taskKeys } from './0003-task-keys.js';
import { dropMemberDirectory } from './0004-drop-member-directory.js';
import { taskSource } from './0005-task-source.js';
import { memberReleases } from './0006-member-releases.js';
import { assigneePosition } from './0007-assignee-position.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createTasksTables, distributionKeys, taskKeys, dropMemberDirectory, taskSource, memberReleases, assigneePosition];
