import type { AppMigration } from '@wpk/sdk';
import { createSign } from './0001-create-sign.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createSign];
