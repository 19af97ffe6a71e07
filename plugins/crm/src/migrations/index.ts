import type { AppMigration } from '@wpk/sdk';
import { createCrm } from './0001-create-crm.js';
import { createActivities } from './0002-activities.js';
import { createLeadForms } from './0003-lead-forms.js';
import { addNextSteps } from './0004-next-steps.js';
import { taskAndMeetingActivities } from './0005-task-and-meeting-activities.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createCrm, createActivities, createLeadForms, addNextSteps, taskAndMeetingActivities];
