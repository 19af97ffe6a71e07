import type { AppMigration } from '@wpk/sdk';
import { createFinanceTables } from './0001-create-finance-tables.js';
import { createOrganizationCopy } from './0002-organization-copy.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createFinanceTables, createOrganizationCopy];
