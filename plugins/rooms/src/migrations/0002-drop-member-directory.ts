import { dropTenantTable } from '@wpk/sdk';

/**
 * The app's copy of who left the workspace goes: member references are checked against the
 * platform's member directory (`ctx.members`, `Joi.memberMrn()`), which is never behind it.
 * Down re-creates the table empty (the copy it held cannot be rebuilt from here).
 */
export const dropMemberDirectory = dropTenantTable('0002-drop-member-directory', 'member_directory', { columns: { member_id: 'uuid NOT NULL', removed_at: 'timestamptz' }, primaryKey: ['member_id'] });
