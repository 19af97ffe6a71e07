import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * Members' addresses come from the platform's member directory (`ctx.members`) now: the app's own
 * copy, learned from callers and `core.account.member.removed`, goes. Down re-creates it empty.
 */
export const dropMemberAddresses: AppMigration = {
  name: '0002-drop-member-addresses',
  async up({ query }) {
    await query('DROP TABLE member_addresses');
  },
  async down({ query }) {
    await query(
      tenantTable('member_addresses', {
        columns: { member_id: 'uuid NOT NULL', email: 'varchar(254) NOT NULL', name: "varchar(200) NOT NULL DEFAULT ''", removed_at: 'timestamptz' },
        primaryKey: ['member_id'],
      }),
    );
  },
};
