import type { AppMigration } from '@wpk/sdk';
import { createAttendance } from './0001-create-attendance.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createAttendance];
