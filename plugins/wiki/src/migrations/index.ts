import type { AppMigration } from '@wpk/sdk';
import { createWiki } from './0001-create-wiki.js';
import { pageDocuments } from './0002-page-documents.js';

/** The app's migrations, in order. */
export const migrations: AppMigration[] = [createWiki, pageDocuments];
