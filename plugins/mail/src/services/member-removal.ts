import type { MailBaseContext } from '../kit.js';
import { disconnectAccount, findAccount } from './accounts.js';

/**
 * `core.account.member.removed`: their mailboxes stay (mail keeps arriving, an admin reassigns
 * them) but are unassigned, the accounts they connected are disconnected (their passwords go with
 * them), and they leave every group. Who is a member is the platform's to say (`ctx.members`); the
 * app keeps no copy. Idempotent: a redelivery finds nothing left; two deliveries at once take
 * turns on a lock per member.
 */
export async function memberRemoved(ctx: MailBaseContext, memberId: string, removedBy: string | null): Promise<void> {
  await ctx.lock(`member-removed:${memberId}`);
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
