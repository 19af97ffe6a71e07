import type { AppMigration } from '@wpk/sdk';
import { createWiki } from './0001-create-wiki.js';

/** The app's migrations, in order. */
export const migrations: AppMigration[] = [createWiki];
