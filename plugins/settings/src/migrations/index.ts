import type { AppMigration } from '@wpk/sdk';
import { createSettingsTables } from './0001-create-settings-tables.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createSettingsTables];
