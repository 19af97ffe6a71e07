import type { AppMigration } from '@wpk/sdk';
import { createPapersTables } from './0001-create-papers-tables.js';
import { createPaperImages } from './0002-paper-images.js';
import { addPaperTemplates } from './0003-paper-templates.js';
import { addDepartmentShares } from './0004-department-shares.js';
import { addAnonymousLinks } from './0005-anonymous-links.js';

/** The app's migrations, in order. */
export const migrations: AppMigration[] = [createPapersTables, createPaperImages, addPaperTemplates, addDepartmentShares, addAnonymousLinks];
