import type { AppMigration } from '@wpk/sdk';
import { createGrowth } from './0001-create-growth.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createGrowth];
