import type { AppMigration } from '@wpk/sdk';
import { createCanvasTables } from './0001-create-canvas-tables.js';
import { boardDocumentsOnTheEditingStack } from './0002-board-documents-on-the-editing-stack.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createCanvasTables, boardDocumentsOnTheEditingStack];
