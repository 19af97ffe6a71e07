import type { AppMigration } from '@wpk/sdk';

/**
 * Assignees keep the order they were given in: the members named together when a task is made
 * are stored in one instant, so `created_at` cannot tell them apart; `position` is their place in
 * the request's `assignee_ids` (0 for a member assigned later, who comes after by `created_at`).
 */
export const assigneePosition: AppMigration = {
  name: '0007-assignee-position',
  async up({ query }) {
    await query('ALTER TABLE task_assignees ADD COLUMN position smallint NOT NULL DEFAULT 0 CHECK (position >= 0)');
  },
  async down({ query }) {
    await query('ALTER TABLE task_assignees DROP COLUMN position');
  },
};
