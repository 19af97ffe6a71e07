import type { AppMigration } from '@wpk/sdk';
import { createMeetingsTables } from './0001-create-meetings-tables.js';
import { dropMemberAddresses } from './0002-drop-member-addresses.js';
import { meetingSource } from './0003-meeting-source.js';

/** The app's migrations, oldest first; append, never edit a released one. */
export const migrations: AppMigration[] = [createMeetingsTables, dropMemberAddresses, meetingSource];
