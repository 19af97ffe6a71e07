import type { AppMigration } from '@wpk/sdk';
import { createFinanceTables } from './0001-create-finance-tables.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createFinanceTables];
