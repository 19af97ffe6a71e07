import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The app's copy of who left the workspace goes: member references are checked against the
 * platform's member directory (`ctx.members`, `Joi.memberMrn()`), which is never behind it.
 * Down re-creates the table empty (the copy it held cannot be rebuilt from here).
 */
export const dropMemberDirectory: AppMigration = {
  name: '0002-drop-member-directory',
  async up({ query }) {
    await query('DROP TABLE member_directory');
  },
  async down({ query }) {
    await query(tenantTable('member_directory', { columns: { member_id: 'uuid NOT NULL', removed_at: 'timestamptz' }, primaryKey: ['member_id'] }));
  },
};
