import type { AppMigration } from '@wpk/sdk';

/**
 * A worker remembers the member they were linked to when that member left (`former_member_id`):
 * apps that react to the member's removal (Tasks unassigning their tasks) name the member, not the
 * worker, and their confirmation may arrive after the worker was unlinked.
 */
export const formerMember: AppMigration = {
  name: '0004-former-member',
  async up({ query }) {
    await query('ALTER TABLE workers ADD COLUMN former_member_id uuid; CREATE INDEX workers_former_member_idx ON workers (workspace_id, former_member_id)');
  },
  async down({ query }) {
    await query('DROP INDEX workers_former_member_idx; ALTER TABLE workers DROP COLUMN former_member_id');
  },
};
