import { Joi } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { ROOM_ROLES, VISIBILITIES } from '../models/index.js';
import { addMember, listMembers, removeMember, updateMember } from '../services/members.js';
import { createRoom, deleteRoom, listRooms, readRoom, requireVisibleRoom, updateRoom } from '../services/rooms.js';
import { joinSession, leaveSession } from '../services/sessions.js';
import { ROOM, ROOM_DELETED, ROOM_MEMBER, ROOM_MEMBER_REMOVED, SESSION_JOINED, SESSION_LEFT } from './answers.js';

const id = () => Joi.id();
const roomParams = Joi.object({ id: id().required() });
const memberParams = Joi.object({ id: id().required(), member_mrn: Joi.string().max(200).required() });
const name = () => Joi.string().trim().min(1).max(100);
const description = () => Joi.string().max(1000).allow('');
const capacity = () => Joi.number().integer().min(2).max(100);

const rooms = routeFamily('/rooms', { record: ROOM });
const room = rooms.at('/{id}', { params: roomParams });
const members = room.at('/members', { record: ROOM_MEMBER });
const member = members.at('/{member_mrn}', { params: memberParams });
const sessions = room.at('/sessions', { record: SESSION_JOINED });

/** Every route of the Rooms app (the manifest's authorization table lists the same). */
export const routes = [
  rooms.list({
    chain: ['rooms.rooms.read'],
    description: "Lists the rooms the caller may see (theirs and those open to the workspace), by name; mine: only the caller's",
    query: Joi.listQuery({ q: Joi.string().max(100).allow(''), mine: Joi.boolean(), visibility: Joi.string().valid(...VISIBILITIES) }),
    async handler(request, ctx) {
      const { data, count } = await listRooms(ctx, request.query);
      return ctx.respond.collection(data, count);
    },
  }),
  rooms.post({
    chain: ['rooms.rooms.create'],
    description: 'Creates a room; the caller is its owner, the members named join with their roles',
    payload: Joi.object({
      name: name().required(),
      description: description(),
      visibility: Joi.string().valid(...VISIBILITIES),
      locked: Joi.boolean(),
      max_participants: capacity(),
      members: Joi.array().items(Joi.object({ member_mrn: Joi.memberMrn().required(), role: Joi.string().valid(...ROOM_ROLES) })).max(500),
    }),
    async handler(request, ctx) {
      const room = await createRoom(ctx, request.payload);
      const { me } = await requireVisibleRoom(ctx, room.id);
      return ctx.respond.single(await readRoom(ctx, room, me), { self: `/rooms/${room.id}` });
    },
  }),
  room.get({
    chain: ['rooms.rooms.read'],
    description: 'Reads a room (one the caller is a member of, or one open to the workspace)',
    async handler(request, ctx) {
      const { room, me } = await requireVisibleRoom(ctx, request.params.id);
      return ctx.respond.single(await readRoom(ctx, room, me), { members: `/rooms/${room.id}/members`, sessions: `/rooms/${room.id}/sessions` });
    },
  }),
  room.patch({
    chain: ['rooms.rooms.read'],
    description: "UpdateRoom: name, description, lock and capacity (owners and moderators); visibility (owners)",
    payload: Joi.object({ name: name(), description: description(), visibility: Joi.string().valid(...VISIBILITIES), locked: Joi.boolean(), max_participants: capacity() }).or('name', 'description', 'visibility', 'locked', 'max_participants'),
    run: (request, ctx) => updateRoom(ctx, request.params.id, request.payload),
  }),
  room.delete({
    chain: ['rooms.rooms.read'],
    answers: { single: ROOM_DELETED },
    description: 'Deletes a room and ends its session (its owners, or rooms.rooms.manage)',
    run: (request, ctx) => deleteRoom(ctx, request.params.id),
  }),
  members.list({
    chain: ['rooms.rooms.read'],
    description: "Lists a room's members: owners, moderators, then members, each by who joined first",
    query: Joi.listQuery(),
    run: (request, ctx) => listMembers(ctx, request.params.id),
  }),
  members.post({
    chain: ['rooms.rooms.read'],
    description: 'Adds a member with a role (owners and moderators; the owner role by owners), or joins a room open to the workspace (member_mrn: the caller)',
    payload: Joi.object({ member_mrn: Joi.memberMrn().required(), role: Joi.string().valid(...ROOM_ROLES) }),
    run: (request, ctx) => addMember(ctx, request.params.id, request.payload),
  }),
  member.patch({
    chain: ['rooms.rooms.read'],
    description: "UpdateMember: a member's role (the room's owners); a room keeps one owner",
    payload: Joi.object({ role: Joi.string().valid(...ROOM_ROLES).required() }),
    run: (request, ctx) => updateMember(ctx, request.params.id, request.params.member_mrn, request.payload.role),
  }),
  member.delete({
    chain: ['rooms.rooms.read'],
    answers: { single: ROOM_MEMBER_REMOVED },
    description: 'Removes a member (moderators remove members, owners anyone), or leaves the room (the member themselves)',
    run: (request, ctx) => removeMember(ctx, request.params.id, request.params.member_mrn),
  }),
  sessions.post({
    chain: ['rooms.sessions.join'],
    description: "Joins the room's session: answers the signaling socket's address, the session to join and the ICE servers, and records the caller as present",
    run: (request, ctx) => joinSession(ctx, request.params.id),
  }),
  sessions.delete({
    chain: ['rooms.sessions.join'],
    answers: { single: SESSION_LEFT },
    description: "Leaves the room's session; member_mrn: an owner or moderator disconnects someone else",
    // A member removed a moment ago may still be in the session: they can be disconnected.
    query: Joi.object({ member_mrn: Joi.memberMrn({ former: true }) }),
    run: (request, ctx) => leaveSession(ctx, request.params.id, request.query.member_mrn as string | undefined),
  }),
];
