import type { AppMigration } from '@wpk/sdk';

/**
 * Tasks and meetings on the timeline: a task made for a deal, lead, contact or company (its
 * `source_mrn`), its completion, and a meeting scheduled for one are entries of two new kinds.
 * Down removes those entries before the old rule comes back.
 */
export const taskAndMeetingActivities: AppMigration = {
  name: '0005-task-and-meeting-activities',
  async up({ query }) {
    await query("ALTER TABLE activities DROP CONSTRAINT activities_kind_check, ADD CONSTRAINT activities_kind_check CHECK (kind IN ('call', 'mail', 'task', 'meeting'))");
  },
  async down({ query }) {
    await query("DELETE FROM activities WHERE kind IN ('task', 'meeting'); ALTER TABLE activities DROP CONSTRAINT activities_kind_check, ADD CONSTRAINT activities_kind_check CHECK (kind IN ('call', 'mail'))");
  },
};
