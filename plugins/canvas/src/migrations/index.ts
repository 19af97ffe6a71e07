import type { AppMigration } from '@wpk/sdk';
import { createCanvasTables } from './0001-create-canvas-tables.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createCanvasTables];
