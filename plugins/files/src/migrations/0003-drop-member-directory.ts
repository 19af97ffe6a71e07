import { dropTenantTable } from '@wpk/sdk';

/**
 * The app's copy of who joined and left the workspace goes: shares and transfers name members
 * checked against the platform's member directory (`ctx.members`, `Joi.memberId()` and
 * `Joi.memberMrn()`), which is never behind it, so a member who joined a moment ago is accepted at
 * once. The reaction to `core.account.member.removed` (shares with them dropped) stays. Down
 * re-creates the table empty (the copy it held cannot be rebuilt from here).
 */
export const dropMemberDirectory = dropTenantTable('0003-drop-member-directory', 'member_directory', { columns: { member_id: 'uuid NOT NULL', removed_at: 'timestamptz', removed_by: 'uuid' }, primaryKey: ['member_id'] });
