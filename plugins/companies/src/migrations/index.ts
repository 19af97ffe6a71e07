import type { AppMigration } from '@wpk/sdk';
import { createCompanies } from './0001-create-companies.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createCompanies];
