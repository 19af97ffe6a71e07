import { dropTenantTable } from '@wpk/sdk';

/**
 * Who is a member comes from the platform's member directory (`ctx.members`) now: the app's own
 * copy, kept from `system.workspace.member.added` and `core.account.member.removed`, goes. Down
 * re-creates it empty.
 */
export const dropMemberDirectory = dropTenantTable('0002-drop-member-directory', 'member_directory', { columns: { member_id: 'uuid NOT NULL', removed_at: 'timestamptz' }, primaryKey: ['member_id'] });
