import { ConflictError, conflictOnDuplicate, ForbiddenError, InvalidError, isUuid, memberIdFromMrn, memberMrn, NotFoundError } from '@wpk/sdk';
import type { RoomsBaseContext, RoomsContext } from '../kit.js';
import type { RoomMember, RoomRole } from '../models/index.js';
import { presentMember } from './present.js';
import { dropFromSession } from './signaling.js';
import { effectiveRole, moderates, reindexMembers, requireVisibleRoom } from './rooms.js';

const RANK: Record<RoomRole, number> = { owner: 3, moderator: 2, member: 1 };

/**
 * The member id of a path's `{member_mrn}`, or a 400 naming it. A path names a room's member, so
 * one who is not in the room (a stranger too) is a 404, not a check against the directory.
 */
function memberIdOf(mrn: string): string {
  const id = memberIdFromMrn(mrn);
  if (!id || !isUuid(id)) throw new InvalidError('member_mrn must be a member MRN (mrn:account:member:<id>)');
  return id.toLowerCase();
}

async function isPresent(ctx: RoomsBaseContext, roomId: string, memberId: string): Promise<boolean> {
  return (await ctx.db.presences.findOne({ where: { room_id: roomId, member_id: memberId } })) !== null;
}

/** A room's members: owners first, then moderators, then members, each by who joined first. */
export async function listMembers(ctx: RoomsContext, roomId: string) {
  const { room } = await requireVisibleRoom(ctx, roomId);
  const { rows, count } = await ctx.db.roomMembers.findAndCountAll({ where: { room_id: room.id }, order: [['role', 'DESC'], ['created_at', 'ASC'], ['member_id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
  const present = new Set((await ctx.db.presences.findAll({ where: { room_id: room.id } })).map((row) => row.member_id));
  return { rows: rows.map((row) => presentMember(row, present.has(row.member_id))), count };
}

/**
 * Adds a member. Anyone who sees a room open to the workspace may join it themselves (as a
 * `member`); adding someone else takes a moderator, and giving the `owner` role an owner.
 */
export async function addMember(ctx: RoomsContext, roomId: string, input: { member_mrn: string; role?: RoomRole }) {
  const { room, me } = await requireVisibleRoom(ctx, roomId, true);
  // The route checked that it names a member of the workspace.
  const memberId = memberIdFromMrn(input.member_mrn)!.toLowerCase();
  const role = input.role ?? 'member';
  const mine = effectiveRole(ctx, me);
  const self = memberId === ctx.member.id;
  if (!(self && role === 'member' && room.visibility === 'workspace') && !moderates(mine)) throw new ForbiddenError("Only the room's owners and moderators may add members");
  if (role === 'owner' && mine !== 'owner') throw new ForbiddenError("Only the room's owners may make someone an owner");
  const message = `member_mrn: ${memberMrn(memberId)} is already a member of this room`;
  if (await ctx.db.roomMembers.findOne({ where: { room_id: room.id, member_id: memberId } })) throw new ConflictError(message);
  const member = await conflictOnDuplicate(ctx.db.roomMembers.create({ room_id: room.id, member_id: memberId, role, added_by: ctx.member.id }), message);
  ctx.events.stage('core.rooms.member.added', { room_id: room.id, member_mrn: memberMrn(memberId), role, added_by_mrn: ctx.member.mrn });
  await reindexMembers(ctx, room.id);
  return presentMember(member, await isPresent(ctx, room.id, memberId));
}

async function requireTarget(ctx: RoomsBaseContext, roomId: string, memberMrnValue: string): Promise<RoomMember> {
  const memberId = memberIdOf(memberMrnValue);
  const target = await ctx.db.roomMembers.findOne({ where: { room_id: roomId, member_id: memberId } });
  if (!target) throw new NotFoundError(`member_mrn: ${memberMrn(memberId)} is not a member of this room`);
  return target;
}

async function ownerCount(ctx: RoomsBaseContext, roomId: string): Promise<number> {
  return ctx.db.roomMembers.count({ where: { room_id: roomId, role: 'owner' } });
}

/** UpdateMember: the room's owners (or `rooms.rooms.manage`) change a member's role; a room keeps at least one owner. */
export async function updateMember(ctx: RoomsContext, roomId: string, memberMrnValue: string, role: RoomRole) {
  const { room, me } = await requireVisibleRoom(ctx, roomId, true);
  if (effectiveRole(ctx, me) !== 'owner') throw new ForbiddenError("Only the room's owners may change roles");
  const target = await requireTarget(ctx, room.id, memberMrnValue);
  if (target.role !== role) {
    if (target.role === 'owner' && (await ownerCount(ctx, room.id)) <= 1) throw new InvalidError('role: a room keeps at least one owner; make someone else owner first');
    await ctx.db.roomMembers.update({ role, updated_at: new Date() }, { where: { room_id: room.id, member_id: target.member_id } });
    ctx.events.stage('core.rooms.member.updated', { room_id: room.id, member_mrn: memberMrn(target.member_id), role, updated_by_mrn: ctx.member.mrn });
  }
  const updated = (await ctx.db.roomMembers.findOne({ where: { room_id: room.id, member_id: target.member_id } }))!;
  return presentMember(updated, await isPresent(ctx, room.id, target.member_id));
}

/**
 * Removes a member: anyone may leave; moderators remove members, owners anyone. The last owner
 * cannot go (make someone else owner, or delete the room). A removed member present in the
 * session is taken out of it too.
 */
export async function removeMember(ctx: RoomsContext, roomId: string, memberMrnValue: string) {
  const { room, me } = await requireVisibleRoom(ctx, roomId, true);
  const target = await requireTarget(ctx, room.id, memberMrnValue);
  const self = target.member_id === ctx.member.id;
  const mine = effectiveRole(ctx, me);
  if (!self && !(mine !== null && moderates(mine) && RANK[mine] > RANK[target.role]) && mine !== 'owner') {
    throw new ForbiddenError(moderates(mine) ? "A moderator may remove members only; the room's owners remove moderators and owners" : "Only the room's owners and moderators may remove members");
  }
  if (target.role === 'owner' && (await ownerCount(ctx, room.id)) <= 1) throw new InvalidError('The last owner cannot leave the room: make someone else owner first, or delete the room');
  await ctx.db.roomMembers.destroy({ where: { room_id: room.id, member_id: target.member_id } });
  ctx.events.stage('core.rooms.member.removed', { room_id: room.id, member_mrn: memberMrn(target.member_id), removed_by_mrn: ctx.member.mrn });
  await reindexMembers(ctx, room.id);
  if (await ctx.db.presences.destroy({ where: { room_id: room.id, member_id: target.member_id } })) {
    ctx.events.stage('core.rooms.session.left', { room_id: room.id, member_mrn: memberMrn(target.member_id), ...(self ? {} : { by_mrn: ctx.member.mrn }) });
    dropFromSession(ctx, room.id, [target.member_id]);
  }
  return { room_id: room.id, member_mrn: memberMrn(target.member_id), removed: true as const };
}

/**
 * `core.account.member.removed`: the member leaves every room and every session (one
 * `member.removed` and, when present, one `session.left` each). A room left without an owner is
 * moderated by holders of `rooms.rooms.manage` (and the workspace's owners and admins). A
 * redelivery finds nothing left and emits nothing.
 */
export async function recordMemberRemoved(ctx: RoomsBaseContext, memberId: string): Promise<void> {
  for (const row of await ctx.db.presences.findAll({ where: { member_id: memberId }, order: [['room_id', 'ASC']] })) {
    await ctx.db.presences.destroy({ where: { room_id: row.room_id, member_id: memberId } });
    ctx.events.stage('core.rooms.session.left', { room_id: row.room_id, member_mrn: memberMrn(memberId) });
    dropFromSession(ctx, row.room_id, [memberId]);
  }
  for (const row of await ctx.db.roomMembers.findAll({ where: { member_id: memberId }, order: [['room_id', 'ASC']] })) {
    await ctx.db.roomMembers.destroy({ where: { room_id: row.room_id, member_id: memberId } });
    ctx.events.stage('core.rooms.member.removed', { room_id: row.room_id, member_mrn: memberMrn(memberId) });
    await reindexMembers(ctx, row.room_id);
  }
}
