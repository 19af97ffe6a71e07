import { InvalidError, isUuid, memberIdFromMrn, memberMrn } from '@wpk/sdk';
import type { ChatBaseContext } from './context.js';
import { publishToChat } from './live.js';
import { emit } from './events.js';

/** The member id an MRN names, or a 400 naming the field. */
export function memberIdOf(mrn: unknown, field: string): string {
  const id = typeof mrn === 'string' ? memberIdFromMrn(mrn) : null;
  if (!id || !isUuid(id)) throw new InvalidError(`${field} must be a member MRN (mrn:account:member:{id})`);
  return id.toLowerCase();
}

/** Refuses a member the app's copy knows as removed from the workspace (one it never heard of is assumed present). */
export async function assertMemberPresent(ctx: ChatBaseContext, memberId: string, field: string): Promise<void> {
  const known = await ctx.db.memberDirectory.findOne({ where: { member_id: memberId } });
  if (known?.removed_at) throw new InvalidError(`${field} ${memberMrn(memberId)} is no longer a member of this workspace`);
}

async function setDirectoryState(ctx: ChatBaseContext, memberId: string, removal: { at: Date; by: string | null } | null): Promise<boolean> {
  const state = { removed_at: removal?.at ?? null, removed_by: removal?.by ?? null };
  const row = await ctx.db.memberDirectory.upsert({ member_id: memberId, ...state }, { conflictFields: ['member_id'], update: [] });
  const changes = (row.removed_at === null) !== (removal === null);
  if (changes) await ctx.db.memberDirectory.update(state, { where: { member_id: memberId } });
  return changes || removal === null;
}

/** `system.workspace.member.added`: the member is (again) present. Idempotent. */
export async function recordMemberAdded(ctx: ChatBaseContext, memberId: string): Promise<void> {
  await setDirectoryState(ctx, memberId, null);
}

/**
 * `core.account.member.removed`: the member leaves every chat (one `participant.removed` each,
 * and their live subscriptions to those chats end). A redelivery finds no participation left and
 * emits nothing.
 */
export async function recordMemberRemoved(ctx: ChatBaseContext, memberId: string, removedBy: string | null): Promise<string[]> {
  await setDirectoryState(ctx, memberId, { at: new Date(), by: removedBy });
  const rows = await ctx.db.participants.findAll({ where: { member_id: memberId }, order: [['chat_id', 'ASC']] });
  const chatIds = rows.map((row) => row.chat_id);
  for (const chatId of chatIds) {
    await ctx.db.participants.destroy({ where: { chat_id: chatId, member_id: memberId } });
    await ctx.db.favourites.destroy({ where: { chat_id: chatId, member_id: memberId } });
    emit(ctx, 'core.chat.participant.removed', { chat_id: chatId, member_mrn: memberMrn(memberId), ...(removedBy && isUuid(removedBy) ? { removed_by_mrn: memberMrn(removedBy) } : {}) });
    const remaining = (await ctx.db.participants.findAll({ where: { chat_id: chatId } })).map((row) => row.member_id);
    publishToChat(ctx, chatId, 'participant.removed', { chat_id: chatId, member_mrn: memberMrn(memberId) }, remaining, [memberId]);
  }
  return chatIds;
}
