import type { AppMigration } from '@wpk/sdk';
import { createLeaves } from './0001-create-leaves.js';
import { createContractCopies } from './0002-contract-copies.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createLeaves, createContractCopies];
