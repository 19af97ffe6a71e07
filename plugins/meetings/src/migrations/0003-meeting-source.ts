import type { AppMigration } from '@wpk/sdk';

/**
 * A meeting can say what it is for: `source_mrn` names another app's record (a CRM deal, a lead,
 * a contact), given when it is scheduled and carried by `meeting.scheduled`, so the record's app
 * can show the meeting on its timeline.
 */
export const meetingSource: AppMigration = {
  name: '0003-meeting-source',
  async up({ query }) {
    await query('ALTER TABLE meetings ADD COLUMN source_mrn varchar(300)');
  },
  async down({ query }) {
    await query('ALTER TABLE meetings DROP COLUMN source_mrn');
  },
};
