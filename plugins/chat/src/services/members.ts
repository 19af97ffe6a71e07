import { isUuid, memberMrn } from '@wpk/sdk';
import type { ChatBaseContext } from '../kit.js';
import { publishToChat } from './live.js';

/**
 * `core.account.member.removed`: the member leaves every chat (one `participant.removed` each,
 * and their live subscriptions to those chats end). A redelivery finds no participation left and
 * emits nothing.
 */
export async function recordMemberRemoved(ctx: ChatBaseContext, memberId: string, removedBy: string | null): Promise<string[]> {
  const rows = await ctx.db.participants.findAll({ where: { member_id: memberId }, order: [['chat_id', 'ASC']] });
  const chatIds = rows.map((row) => row.chat_id);
  for (const chatId of chatIds) {
    await ctx.db.participants.destroy({ where: { chat_id: chatId, member_id: memberId } });
    await ctx.db.favourites.destroy({ where: { chat_id: chatId, member_id: memberId } });
    ctx.events.stage('core.chat.participant.removed', { chat_id: chatId, member_mrn: memberMrn(memberId), ...(removedBy && isUuid(removedBy) ? { removed_by_mrn: memberMrn(removedBy) } : {}) });
    const remaining = (await ctx.db.participants.findAll({ where: { chat_id: chatId } })).map((row) => row.member_id);
    publishToChat(ctx, chatId, 'participant.removed', { chat_id: chatId, member_mrn: memberMrn(memberId) }, remaining, [memberId]);
  }
  return chatIds;
}
