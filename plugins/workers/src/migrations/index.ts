import type { AppMigration } from '@wpk/sdk';
import { createWorkers } from './0001-create-workers.js';
import { createContracts } from './0002-create-contracts.js';
import { createChecklists } from './0003-create-checklists.js';
import { formerMember } from './0004-former-member.js';
import { createLocationCopy } from './0005-location-copy.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createWorkers, createContracts, createChecklists, formerMember, createLocationCopy];
