import type { AppMigration } from '@wpk/sdk';
import { createWiki } from './0001-create-wiki.js';
import { pageDocuments } from './0002-page-documents.js';
import { commentsAndTemplates } from './0003-comments-and-templates.js';

/** The app's migrations, in order. */
export const migrations: AppMigration[] = [createWiki, pageDocuments, commentsAndTemplates];
