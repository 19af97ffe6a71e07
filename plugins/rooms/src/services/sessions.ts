import { ConflictError, ForbiddenError, memberIdFromMrn, memberMrn, NotFoundError } from '@wpk/sdk';
import type { RoomsContext } from '../kit.js';
import { effectiveRole, moderates, requireVisibleRoom } from './rooms.js';
import { dropFromSession, sessionOf } from './signaling.js';

/** Who is in the room's session, by when they joined. */
async function presentMrns(ctx: RoomsContext, roomId: string): Promise<string[]> {
  return (await ctx.db.presences.findAll({ where: { room_id: roomId }, order: [['joined_at', 'ASC'], ['member_id', 'ASC']] })).map((row) => memberMrn(row.member_id));
}

/**
 * Joins the room's session: answers what the client needs to open the signaling socket and
 * records the caller as present. Members and, in a room open to the workspace, anyone who sees it
 * may join; a locked room lets in its owners and moderators only; a full room nobody new. Joining
 * again (another tab, a reconnect) answers the same and records nothing new.
 */
export async function joinSession(ctx: RoomsContext, roomId: string) {
  const { room, me } = await requireVisibleRoom(ctx, roomId, true);
  let presence = await ctx.db.presences.findOne({ where: { room_id: room.id, member_id: ctx.member.id } });
  if (!presence) {
    if (room.locked && !moderates(effectiveRole(ctx, me))) throw new ForbiddenError(`Room ${room.name} is locked: only its owners and moderators may join`);
    const inSession = await ctx.db.presences.count({ where: { room_id: room.id } });
    if (inSession >= room.max_participants) throw new ConflictError(`Room ${room.name} is full: ${inSession} of ${room.max_participants} people are in its session`);
    presence = await ctx.db.presences.create({ room_id: room.id, member_id: ctx.member.id, joined_at: new Date() });
    ctx.events.stage('core.rooms.session.joined', { room_id: room.id, member_mrn: ctx.member.mrn });
  }
  return { room_id: room.id, member_mrn: ctx.member.mrn, joined_at: presence.joined_at, signaling: sessionOf(ctx, room.id), present_mrns: await presentMrns(ctx, room.id) };
}

/** Leaves the room's session; with `member_mrn`, an owner or moderator disconnects someone else. */
export async function leaveSession(ctx: RoomsContext, roomId: string, memberMrnValue?: string) {
  const { room, me } = await requireVisibleRoom(ctx, roomId, true);
  const memberId = memberMrnValue === undefined ? ctx.member.id : memberIdFromMrn(memberMrnValue)!.toLowerCase();
  const self = memberId === ctx.member.id;
  if (!self && !moderates(effectiveRole(ctx, me))) throw new ForbiddenError("Only the room's owners and moderators may disconnect someone else");
  const removed = await ctx.db.presences.destroy({ where: { room_id: room.id, member_id: memberId } });
  if (!removed) throw new NotFoundError(self ? `You are not in room ${room.name}'s session` : `member_mrn: ${memberMrn(memberId)} is not in room ${room.name}'s session`);
  ctx.events.stage('core.rooms.session.left', { room_id: room.id, member_mrn: memberMrn(memberId), ...(self ? {} : { by_mrn: ctx.member.mrn }) });
  dropFromSession(ctx, room.id, [memberId]);
  return { room_id: room.id, member_mrn: memberMrn(memberId), left: true as const, present_mrns: await presentMrns(ctx, room.id) };
}
