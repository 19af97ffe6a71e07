import { conflictOnDuplicate, ForbiddenError, InvalidError, likePattern, memberIdFromMrn, memberMrn, NotFoundError, Op } from '@wpk/sdk';
import { resource, type RoomsBaseContext, type RoomsContext } from '../kit.js';
import type { Room, RoomMember, RoomRole, Visibility } from '../models/index.js';
import { presentRoom, roomDocument } from './present.js';
import { dropFromSession, endSession } from './signaling.js';

/** Rooms of the workspace: get-or-404, the list by name (q on the name), the walk of a re-index. */
export const rooms = resource({ model: 'rooms', label: 'Room', order: [['name', 'ASC'], ['id', 'ASC']], searchColumns: ['name'] });

/** The ids of a private room's members, its search document's readers (an open room's document names none). */
export async function readersOf(ctx: Pick<RoomsBaseContext, 'db'>, room: Room): Promise<string[]> {
  if (room.visibility !== 'private') return [];
  return (await ctx.db.roomMembers.findAll({ where: { room_id: room.id }, order: [['member_id', 'ASC']] })).map((row) => row.member_id);
}

/** Keeps the search index in step with a room (its readers follow its members while it is private). */
export async function indexRoom(ctx: RoomsBaseContext, room: Room): Promise<void> {
  ctx.search.upsert(roomDocument(room, await readersOf(ctx, room)));
}

/** Re-indexes a private room after its members changed (an open room's document does not name them). */
export async function reindexMembers(ctx: RoomsBaseContext, roomId: string): Promise<void> {
  const room = await ctx.db.rooms.findById(roomId);
  if (room?.visibility === 'private') await indexRoom(ctx, room);
}

/** The room, or 404. */
export function requireRoom(ctx: RoomsBaseContext, roomId: string, lock = false): Promise<Room> {
  return rooms.require(ctx, roomId, lock ? { lock: 'update' } : {});
}

/** The caller's membership of a room, or null. */
export function membershipOf(ctx: RoomsBaseContext, roomId: string, memberId: string): Promise<RoomMember | null> {
  return ctx.db.roomMembers.findOne({ where: { room_id: roomId, member_id: memberId } });
}

/**
 * A room the caller may see: one they are a member of, or one open to the workspace (holders of
 * `rooms.rooms.manage` see every room). A private room of others is a 404, so it does not leak.
 */
export async function requireVisibleRoom(ctx: RoomsContext, roomId: string, lock = false): Promise<{ room: Room; me: RoomMember | null }> {
  const room = await requireRoom(ctx, roomId, lock);
  const me = await membershipOf(ctx, room.id, ctx.member.id);
  if (!me && room.visibility === 'private' && !ctx.permissions.has('rooms.rooms.manage')) throw new NotFoundError(`Room ${roomId} not found`);
  return { room, me };
}

/** The caller's effective role: their membership's, or `owner` for a holder of `rooms.rooms.manage`. */
export function effectiveRole(ctx: RoomsContext, me: RoomMember | null): RoomRole | null {
  if (ctx.permissions.has('rooms.rooms.manage')) return 'owner';
  return me?.role ?? null;
}

/** Owners and moderators moderate a room. */
export function moderates(role: RoomRole | null): boolean {
  return role === 'owner' || role === 'moderator';
}

/** The room as the caller sees it: with their role, its member count and who is in its session. */
export async function readRoom(ctx: RoomsContext, room: Room, me: RoomMember | null) {
  const memberCount = await ctx.db.roomMembers.count({ where: { room_id: room.id } });
  const present = await ctx.db.presences.findAll({ where: { room_id: room.id }, order: [['joined_at', 'ASC'], ['member_id', 'ASC']] });
  return presentRoom(room, { role: me?.role ?? null, member_count: memberCount, present_mrns: present.map((row) => memberMrn(row.member_id)) });
}

async function assertNameFree(ctx: RoomsBaseContext, name: string, exceptId?: string): Promise<void> {
  const where: Record<string | symbol, unknown> = { name: { [Op.iLike]: likePattern(name, 'prefix') } };
  if (exceptId) where.id = { [Op.ne]: exceptId };
  const taken = (await ctx.db.rooms.findAll({ where })).some((room) => room.name.toLowerCase() === name.toLowerCase());
  if (taken) throw new InvalidError(`name: a room named ${name} already exists`);
}

function capacity(ctx: RoomsBaseContext, asked: number | undefined): number {
  const most = ctx.settings.max_participants;
  if (asked === undefined) return Math.min(ctx.settings.default_max_participants, most);
  if (asked > most) throw new InvalidError(`max_participants: at most ${most} (the workspace's setting)`);
  return asked;
}

export interface CreateRoomInput {
  name: string;
  description?: string;
  visibility?: Visibility;
  locked?: boolean;
  max_participants?: number;
  members?: Array<{ member_mrn: string; role?: RoomRole }>;
}

/** Creates a room; the caller is its owner, and the members named join with their roles (default `member`). */
export async function createRoom(ctx: RoomsContext, input: CreateRoomInput): Promise<Room> {
  const name = input.name.trim();
  const members = new Map<string, RoomRole>();
  // The route checked that each names a member of the workspace.
  for (const [index, entry] of (input.members ?? []).entries()) {
    const id = memberIdFromMrn(entry.member_mrn)!.toLowerCase();
    if (id === ctx.member.id) continue;
    if (members.has(id)) throw new InvalidError(`members[${index}].member_mrn: ${memberMrn(id)} is named twice`);
    members.set(id, entry.role ?? 'member');
  }
  const maxParticipants = capacity(ctx, input.max_participants);
  await ctx.lock('room-names');
  await assertNameFree(ctx, name);
  const room = await conflictOnDuplicate(
    ctx.db.rooms.create({ name, description: input.description ?? '', visibility: input.visibility ?? 'workspace', locked: input.locked ?? false, max_participants: maxParticipants, creator_id: ctx.member.id }),
    `name: a room named ${name} already exists`,
  );
  await ctx.db.roomMembers.create({ room_id: room.id, member_id: ctx.member.id, role: 'owner', added_by: ctx.member.id });
  for (const [id, role] of members) await ctx.db.roomMembers.create({ room_id: room.id, member_id: id, role, added_by: ctx.member.id });
  ctx.events.stage('core.rooms.room.created', { room_id: room.id, name: room.name, visibility: room.visibility, creator_mrn: ctx.member.mrn });
  ctx.events.stage('core.rooms.member.added', { room_id: room.id, member_mrn: ctx.member.mrn, role: 'owner', added_by_mrn: ctx.member.mrn });
  for (const [id, role] of members) ctx.events.stage('core.rooms.member.added', { room_id: room.id, member_mrn: memberMrn(id), role, added_by_mrn: ctx.member.mrn });
  await indexRoom(ctx, room);
  return room;
}

export interface RoomListQuery {
  q?: string;
  mine?: boolean;
  visibility?: Visibility;
}

/** The rooms the caller may see (theirs, and those open to the workspace), by name. */
export async function listRooms(ctx: RoomsContext, query: RoomListQuery) {
  const mine = await ctx.db.roomMembers.findAll({ where: { member_id: ctx.member.id } });
  const byRoom = new Map(mine.map((row) => [row.room_id, row]));
  const seeAll = ctx.permissions.has('rooms.rooms.manage') && !query.mine;
  const conditions: Array<Record<string | symbol, unknown>> = [];
  if (!seeAll) conditions.push(query.mine ? { id: { [Op.in]: [...byRoom.keys()] } } : { [Op.or]: [{ visibility: 'workspace' }, { id: { [Op.in]: [...byRoom.keys()] } }] });
  if (query.visibility) conditions.push({ visibility: query.visibility });
  const { rows, count } = await rooms.list(ctx, { q: query.q, where: { [Op.and]: conditions } });
  const data = [];
  for (const room of rows) data.push(await readRoom(ctx, room, byRoom.get(room.id) ?? null));
  return { data, count };
}

export interface UpdateRoomInput {
  name?: string;
  description?: string;
  visibility?: Visibility;
  locked?: boolean;
  max_participants?: number;
}

/** UpdateRoom: owners and moderators change the name, description, lock and capacity; only owners change who may see it. */
export async function updateRoom(ctx: RoomsContext, roomId: string, input: UpdateRoomInput) {
  const { room, me } = await requireVisibleRoom(ctx, roomId, true);
  const role = effectiveRole(ctx, me);
  if (!moderates(role)) throw new ForbiddenError("Only the room's owners and moderators may change it");
  const changes: UpdateRoomInput = {};
  if (input.name !== undefined && input.name.trim() !== room.name) changes.name = input.name.trim();
  if (input.description !== undefined && input.description !== room.description) changes.description = input.description;
  if (input.locked !== undefined && input.locked !== room.locked) changes.locked = input.locked;
  if (input.max_participants !== undefined && input.max_participants !== room.max_participants) changes.max_participants = capacity(ctx, input.max_participants);
  if (input.visibility !== undefined && input.visibility !== room.visibility) {
    if (role !== 'owner') throw new ForbiddenError("Only the room's owners may change its visibility");
    changes.visibility = input.visibility;
  }
  if (Object.keys(changes).length === 0) return readRoom(ctx, room, me);
  if (changes.name !== undefined) {
    await ctx.lock('room-names');
    await assertNameFree(ctx, changes.name, room.id);
  }
  await conflictOnDuplicate(ctx.db.rooms.update({ ...changes, updated_at: new Date() }, { where: { id: room.id } }), `name: a room named ${changes.name} already exists`);
  const updated = (await ctx.db.rooms.findById(room.id))!;
  ctx.events.stage('core.rooms.room.updated', { room_id: room.id, changes, updated_by_mrn: ctx.member.mrn });
  if (changes.visibility === 'private') await dropNonMembers(ctx, room.id);
  await indexRoom(ctx, updated);
  return readRoom(ctx, updated, me);
}

/** A room turned private: whoever is in its session without being a member is taken out (`session.left`, by the caller). */
async function dropNonMembers(ctx: RoomsContext, roomId: string): Promise<void> {
  const members = new Set((await ctx.db.roomMembers.findAll({ where: { room_id: roomId } })).map((row) => row.member_id));
  const outsiders = (await ctx.db.presences.findAll({ where: { room_id: roomId }, order: [['joined_at', 'ASC'], ['member_id', 'ASC']] })).filter((row) => !members.has(row.member_id));
  for (const row of outsiders) {
    await ctx.db.presences.destroy({ where: { room_id: roomId, member_id: row.member_id } });
    ctx.events.stage('core.rooms.session.left', { room_id: roomId, member_mrn: memberMrn(row.member_id), by_mrn: ctx.member.mrn });
  }
  dropFromSession(ctx, roomId, outsiders.map((row) => row.member_id));
}

/** Deletes a room with its members; its session ends for everyone. Its owners, or `rooms.rooms.manage`. */
export async function deleteRoom(ctx: RoomsContext, roomId: string): Promise<{ id: string; deleted: true }> {
  const { room, me } = await requireVisibleRoom(ctx, roomId, true);
  if (effectiveRole(ctx, me) !== 'owner') throw new ForbiddenError("Only the room's owners may delete it");
  await ctx.db.rooms.destroy({ where: { id: room.id } });
  ctx.events.stage('core.rooms.room.deleted', { room_id: room.id, deleted_by_mrn: ctx.member.mrn });
  ctx.search.remove('room', room.id);
  endSession(ctx, room.id);
  return { id: room.id, deleted: true };
}
