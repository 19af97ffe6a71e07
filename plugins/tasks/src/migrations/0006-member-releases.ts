import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * Which removed members the app has released (unassigned from their open tasks, taken off the
 * boards): `core.tasks.member.released` is emitted once per member, and a redelivery of the
 * removal finds the row and emits nothing.
 */
export const memberReleases: AppMigration = {
  name: '0006-member-releases',
  async up({ query }) {
    await query(tenantTable('member_releases', { columns: { id: 'uuid NOT NULL', member_id: 'uuid NOT NULL', unassigned: 'integer NOT NULL CHECK (unassigned >= 0)' }, unique: [['member_id']] }));
  },
  async down({ query }) {
    await query('DROP TABLE member_releases');
  },
};
