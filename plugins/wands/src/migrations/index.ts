import type { AppMigration } from '@wpk/sdk';
import { createWands } from './0001-create-wands.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createWands];
