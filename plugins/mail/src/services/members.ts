import { InvalidError, isUuid } from '@wpk/sdk';
import { disconnectAccount, findAccount } from './accounts.js';
import type { MailBaseContext } from './context.js';

/** Refuses an id no member can have, and a member the app's copy knows as removed. */
export async function assertMemberPresent(ctx: MailBaseContext, memberId: string, field = 'member_id'): Promise<void> {
  if (!isUuid(memberId)) throw new InvalidError(`${field} ${memberId} is not a member of this workspace`);
  const known = await ctx.db.memberDirectory.findOne({ where: { member_id: memberId } });
  if (known?.removed_at) throw new InvalidError(`${field} ${memberId} is no longer a member of this workspace`);
}

/** `system.workspace.member.added`: present again (idempotent). */
export async function recordMemberAdded(ctx: MailBaseContext, memberId: string): Promise<void> {
  const row = await ctx.db.memberDirectory.upsert({ member_id: memberId, removed_at: null }, { conflictFields: ['member_id'], update: [] });
  if (row.removed_at !== null) await ctx.db.memberDirectory.update({ removed_at: null }, { where: { member_id: memberId } });
}

/**
 * `core.account.member.removed`: remembered as removed; their mailboxes stay (mail keeps
 * arriving, an admin reassigns them) but are unassigned, the accounts they connected are
 * disconnected (their passwords go with them), and they leave every group. Idempotent.
 */
export async function recordMemberRemoved(ctx: MailBaseContext, memberId: string, removedBy: string | null): Promise<void> {
  const row = await ctx.db.memberDirectory.upsert({ member_id: memberId, removed_at: new Date() }, { conflictFields: ['member_id'], update: [] });
  if (row.removed_at === null) await ctx.db.memberDirectory.update({ removed_at: new Date() }, { where: { member_id: memberId } });
  const mailboxes = await ctx.db.mailboxes.findAll({ where: { member_id: memberId }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  for (const mailbox of mailboxes) {
    await ctx.db.mailboxes.update({ member_id: null }, { where: { id: mailbox.id } });
    ctx.events.stage('core.mail.mailbox.assigned', { mailbox_id: mailbox.id, address: mailbox.address, member_id: null, assigned_by: removedBy });
  }
  const connected = await ctx.db.connectedAccounts.findAll({ where: { member_id: memberId }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  for (const account of connected) {
    const found = await findAccount(ctx, account.id, true);
    if (found) await disconnectAccount(ctx, found, removedBy);
  }
  const memberships = await ctx.db.groupMembers.findAll({ where: { member_id: memberId }, order: [['created_at', 'ASC']] });
  for (const membership of memberships) {
    await ctx.db.groupMembers.destroy({ where: { group_id: membership.group_id, member_id: memberId } });
    ctx.events.stage('core.mail.group_member.removed', { group_id: membership.group_id, member_id: memberId, removed_by: removedBy });
  }
}
