import type { AppMigration } from '@wpk/sdk';
import { createMailTables } from './0001-create-mail-tables.js';
import { connectedAccounts } from './0002-connected-accounts.js';
import { domainOwnership } from './0003-domain-ownership.js';
import { dropMemberDirectory } from './0004-drop-member-directory.js';
import { attachments } from './0005-attachments.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createMailTables, connectedAccounts, domainOwnership, dropMemberDirectory, attachments];
