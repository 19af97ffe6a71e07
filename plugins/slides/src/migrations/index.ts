import type { AppMigration } from '@wpk/sdk';
import { createSlidesTables } from './0001-create-slides-tables.js';
import { createDeckDocuments } from './0002-deck-documents.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createSlidesTables, createDeckDocuments];
