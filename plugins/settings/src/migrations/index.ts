import type { AppMigration } from '@wpk/sdk';
import { createSettingsTables } from './0001-create-settings-tables.js';
import { locationRevision } from './0002-location-revision.js';
import { importPlans } from './0003-import-plans.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createSettingsTables, locationRevision, importPlans];
