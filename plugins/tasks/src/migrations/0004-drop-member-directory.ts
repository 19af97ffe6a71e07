import { dropTenantTable } from '@wpk/sdk';

/**
 * The app's copy of who joined and left the workspace goes: assignees and board members are
 * checked against the platform's member directory (`ctx.members`, `Joi.memberId()`), which is
 * never behind it. The reaction to `core.account.member.removed` (unassigning, leaving boards)
 * stays. Down re-creates the table empty (the copy it held cannot be rebuilt from here).
 */
export const dropMemberDirectory = dropTenantTable('0004-drop-member-directory', 'member_directory', { columns: { member_id: 'uuid NOT NULL', removed_at: 'timestamptz', removed_by: 'uuid' }, primaryKey: ['member_id'] });
