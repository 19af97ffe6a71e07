import { dropTenantTable } from '@wpk/sdk';

/**
 * The app's copy of who joined and left the workspace goes: mailbox owners and group members are
 * checked against the platform's member directory (`ctx.members`, `Joi.memberId()`), which is
 * never behind it. The reaction to `core.account.member.removed` (mailboxes unassigned, connected
 * accounts disconnected, groups left) stays. Down re-creates the table empty.
 */
export const dropMemberDirectory = dropTenantTable('0004-drop-member-directory', 'member_directory', { columns: { member_id: 'uuid NOT NULL', removed_at: 'timestamptz' }, primaryKey: ['member_id'] });
