import type { AppMigration } from '@wpk/sdk';

/**
 * A task can say what it is for: `source_mrn` names another app's record (a CRM deal, a lead, a
 * contact), given when the task is made, carried by `task.created` and `task.completed` so the
 * record's app can show the task on its timeline (docs/decisions, "tasks and meetings name their
 * source").
 */
export const taskSource: AppMigration = {
  name: '0005-task-source',
  async up({ query }) {
    await query('ALTER TABLE tasks ADD COLUMN source_mrn varchar(300)');
  },
  async down({ query }) {
    await query('ALTER TABLE tasks DROP COLUMN source_mrn');
  },
};
