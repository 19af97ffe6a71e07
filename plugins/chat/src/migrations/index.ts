import type { AppMigration } from '@wpk/sdk';
import { createChatTables } from './0001-create-chat-tables.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createChatTables];
