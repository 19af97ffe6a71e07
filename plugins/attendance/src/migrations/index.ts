import type { AppMigration } from '@wpk/sdk';
import { createAttendance } from './0001-create-attendance.js';
import { settingsLocations } from './0002-settings-locations.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createAttendance, settingsLocations];
