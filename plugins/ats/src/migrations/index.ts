import type { AppMigration } from '@wpk/sdk';
import { createRecruitingTables } from './0001-create-recruiting-tables.js';
import { createCandidateMessages } from './0002-candidate-messages.js';
import { dropMemberDirectory } from './0003-drop-member-directory.js';
import { createCompetencyCopy } from './0004-competency-copy.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createRecruitingTables, createCandidateMessages, dropMemberDirectory, createCompetencyCopy];
