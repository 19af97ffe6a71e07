import { conflictOnDuplicate, ForbiddenError, InvalidError, isUuid, memberIdFromMrn, memberMrn, NotFoundError } from '@wpk/sdk';
import type { ChatContext } from '../kit.js';
import type { Participant } from '../models/index.js';
import { audienceOf, canModerate, requireParticipant, requireVisibleChat } from './chats.js';
import { publishToChat, publishToMember } from './live.js';
import { presentChat, presentParticipant } from './present.js';

/**
 * The member id of a path's `{member_mrn}`, or a 400 naming it. A path names a participant, so
 * one who is not in the chat (a stranger too) is a 404, not a check against the directory.
 */
function memberIdOf(mrn: string): string {
  const id = memberIdFromMrn(mrn);
  if (!id || !isUuid(id)) throw new InvalidError('member_mrn must be a member MRN (mrn:account:member:<id>)');
  return id.toLowerCase();
}

/** The chat's participants, owners first, then by who joined first. */
export async function listParticipants(ctx: ChatContext, chatId: string) {
  await requireVisibleChat(ctx, chatId);
  const { rows, count } = await ctx.db.participants.findAndCountAll({
    where: { chat_id: chatId },
    order: [['role', 'DESC'], ['created_at', 'ASC'], ['member_id', 'ASC']],
    offset: ctx.page.offset,
    limit: ctx.page.limit,
  });
  return { rows: rows.map(presentParticipant), count };
}

/**
 * Adds a participant. Anyone may join a channel themselves; adding someone else takes the chat's
 * owner or `chat.participants.manage` (a participant of a group may add too, as in Slack and
 * Mattermost groups). A direct chat never grows.
 */
export async function addParticipant(ctx: ChatContext, chatId: string, memberMrnValue: string): Promise<Participant> {
  const { chat, me } = await requireVisibleChat(ctx, chatId);
  // The route checked that it names a member of the workspace.
  const memberId = memberIdFromMrn(memberMrnValue)!.toLowerCase();
  if (chat.type === 'direct') throw new InvalidError('A direct chat has exactly two participants: start a group chat instead');
  const self = memberId === ctx.member.id;
  if (!self && !me) throw new ForbiddenError(`Join channel ${chat.name ?? chat.id} first: only its participants may add others`);
  if (!self && chat.type === 'channel' && !canModerate(ctx, me) && !ctx.permissions.has('chat.participants.manage')) throw new ForbiddenError('Only the channel\'s owner may add others');
  if (self && chat.type !== 'channel' && !me) throw new NotFoundError(`Chat ${chatId} not found`);
  if (await ctx.db.participants.findOne({ where: { chat_id: chat.id, member_id: memberId } })) throw new InvalidError(`${memberMrn(memberId)} already takes part in this chat`);
  if (chat.type === 'group' && (await ctx.db.participants.count({ where: { chat_id: chat.id } })) >= ctx.settings.max_group_participants) {
    throw new InvalidError(`A group chat has at most ${ctx.settings.max_group_participants} participants`);
  }
  const participant = await conflictOnDuplicate(ctx.db.participants.create({ chat_id: chat.id, member_id: memberId, role: 'member' }), `${memberMrn(memberId)} already takes part in this chat`);
  ctx.events.stage('core.chat.participant.added', { chat_id: chat.id, member_mrn: memberMrn(memberId), added_by_mrn: ctx.member.mrn });
  publishToChat(ctx, chat.id, 'participant.added', presentParticipant(participant), await audienceOf(ctx, chat.id));
  publishToMember(ctx, memberId, 'chat.joined', presentChat(chat));
  return participant;
}

/** UpdateParticipant: `role` by the owner (or `chat.participants.manage`); `muted` by the participant themselves. */
export async function updateParticipant(ctx: ChatContext, chatId: string, memberMrnValue: string, input: { role?: 'owner' | 'member'; muted?: boolean }): Promise<Participant> {
  const { chat, me } = await requireParticipant(ctx, chatId);
  const memberId = memberIdOf(memberMrnValue);
  const target = await ctx.db.participants.findOne({ where: { chat_id: chat.id, member_id: memberId } });
  if (!target) throw new NotFoundError("member_mrn: no such participant in this chat");
  const changes: Partial<Participant> = {};
  if (input.muted !== undefined) {
    if (memberId !== ctx.member.id) throw new ForbiddenError('Only the participant may mute a chat for themselves');
    changes.muted = input.muted;
  }
  if (input.role !== undefined && input.role !== target.role) {
    if (chat.type === 'direct') throw new InvalidError('role: both participants of a direct chat own it');
    if (!canModerate(ctx, me) && !ctx.permissions.has('chat.participants.manage')) throw new ForbiddenError('Only the chat\'s owner may change roles');
    if (input.role === 'member' && (await ctx.db.participants.count({ where: { chat_id: chat.id, role: 'owner' } })) <= 1) throw new InvalidError('role: a chat keeps at least one owner');
    changes.role = input.role;
  }
  if (Object.keys(changes).length > 0) await ctx.db.participants.update(changes, { where: { chat_id: chat.id, member_id: memberId } });
  const updated = (await ctx.db.participants.findOne({ where: { chat_id: chat.id, member_id: memberId } }))!;
  if (changes.role !== undefined) publishToChat(ctx, chat.id, 'participant.updated', presentParticipant(updated), await audienceOf(ctx, chat.id));
  return updated;
}

/** Removes a participant: themselves (leaving), or anyone by the owner or `chat.participants.manage`. Their live subscription to the chat ends. */
export async function removeParticipant(ctx: ChatContext, chatId: string, memberMrnValue: string): Promise<{ member_mrn: string; removed: true }> {
  const { chat, me } = await requireVisibleChat(ctx, chatId);
  const memberId = memberIdOf(memberMrnValue);
  if (chat.type === 'direct') throw new InvalidError('Nobody leaves a direct chat: delete it instead');
  const self = memberId === ctx.member.id;
  if (!self && !canModerate(ctx, me) && !ctx.permissions.has('chat.participants.manage')) throw new ForbiddenError('Only the chat\'s owner may remove others');
  const target = await ctx.db.participants.findOne({ where: { chat_id: chat.id, member_id: memberId } });
  if (!target) throw new NotFoundError("member_mrn: no such participant in this chat");
  if (target.role === 'owner' && (await ctx.db.participants.count({ where: { chat_id: chat.id, role: 'owner' } })) <= 1 && (await ctx.db.participants.count({ where: { chat_id: chat.id } })) > 1) {
    throw new InvalidError('The last owner cannot leave: make another participant owner first');
  }
  await ctx.db.participants.destroy({ where: { chat_id: chat.id, member_id: memberId } });
  await ctx.db.favourites.destroy({ where: { chat_id: chat.id, member_id: memberId } });
  ctx.events.stage('core.chat.participant.removed', { chat_id: chat.id, member_mrn: memberMrn(memberId), removed_by_mrn: ctx.member.mrn });
  publishToChat(ctx, chat.id, 'participant.removed', { chat_id: chat.id, member_mrn: memberMrn(memberId) }, await audienceOf(ctx, chat.id), [memberId]);
  return { member_mrn: memberMrn(memberId), removed: true };
}

/** Asks the chat's participants to join a call: `core.chat.call.requested`, which the calls app answers. */
export async function requestCall(ctx: ChatContext, chatId: string, mode: 'video' | 'audio') {
  const { chat } = await requireParticipant(ctx, chatId);
  const audience = await audienceOf(ctx, chat.id);
  const chatName = chat.name ?? (chat.type === 'direct' ? 'Direct chat' : 'Group chat');
  const payload = { chat_id: chat.id, chat_name: chatName, participant_mrns: audience.map(memberMrn), mode, requested_by: ctx.member.mrn };
  ctx.events.stage('core.chat.call.requested', payload);
  publishToChat(ctx, chat.id, 'call.requested', payload, audience);
  return payload;
}
