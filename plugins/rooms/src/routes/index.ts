import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
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

/** Every route of the Rooms app (the manifest's authorization table lists the same). */
export const routes = [
  route({
    method: 'GET',
    path: '/rooms',
    chain: ['rooms.rooms.read'],
    answers: { collection: ROOM },
    description: "Lists the rooms the caller may see (theirs and those open to the workspace), by name; mine: only the caller's",
    validate: { query: Joi.listQuery({ q: Joi.string().max(100).allow(''), mine: Joi.boolean(), visibility: Joi.string().valid(...VISIBILITIES) }) },
    async handler(request, ctx) {
      const { data, count } = await listRooms(ctx, request.query);
      return ctx.respond.collection(data, count);
    },
  }),
  route({
    method: 'POST',
    path: '/rooms',
    chain: ['rooms.rooms.create'],
    answers: { single: ROOM },
    description: 'Creates a room; the caller is its owner, the members named join with their roles',
    validate: {
      payload: Joi.object({
        name: name().required(),
        description: description(),
        visibility: Joi.string().valid(...VISIBILITIES),
        locked: Joi.boolean(),
        max_participants: capacity(),
        members: Joi.array().items(Joi.object({ member_mrn: Joi.memberMrn().required(), role: Joi.string().valid(...ROOM_ROLES) })).max(500),
      }),
    },
    async handler(request, ctx) {
      const room = await createRoom(ctx, request.payload);
      const { me } = await requireVisibleRoom(ctx, room.id);
      return ctx.respond.single(await readRoom(ctx, room, me), { self: `/rooms/${room.id}` });
    },
  }),
  route({
    method: 'GET',
    path: '/rooms/{id}',
    chain: ['rooms.rooms.read'],
    answers: { single: ROOM },
    description: 'Reads a room (one the caller is a member of, or one open to the workspace)',
    validate: { params: roomParams },
    async handler(request, ctx) {
      const { room, me } = await requireVisibleRoom(ctx, request.params.id);
      return ctx.respond.single(await readRoom(ctx, room, me), { members: `/rooms/${room.id}/members`, sessions: `/rooms/${room.id}/sessions` });
    },
  }),
  route({
    method: 'PATCH',
    path: '/rooms/{id}',
    chain: ['rooms.rooms.read'],
    answers: { single: ROOM },
    description: "UpdateRoom: name, description, lock and capacity (owners and moderators); visibility (owners)",
    validate: { params: roomParams, payload: Joi.object({ name: name(), description: description(), visibility: Joi.string().valid(...VISIBILITIES), locked: Joi.boolean(), max_participants: capacity() }).or('name', 'description', 'visibility', 'locked', 'max_participants') },
    async handler(request, ctx) {
      return ctx.respond.single(await updateRoom(ctx, request.params.id, request.payload));
    },
  }),
  route({
    method: 'DELETE',
    path: '/rooms/{id}',
    chain: ['rooms.rooms.read'],
    answers: { single: ROOM_DELETED },
    description: 'Deletes a room and ends its session (its owners, or rooms.rooms.manage)',
    validate: { params: roomParams },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteRoom(ctx, request.params.id));
    },
  }),
  route({
    method: 'GET',
    path: '/rooms/{id}/members',
    chain: ['rooms.rooms.read'],
    answers: { collection: ROOM_MEMBER },
    description: "Lists a room's members: owners, moderators, then members, each by who joined first",
    validate: { params: roomParams, query: Joi.listQuery() },
    async handler(request, ctx) {
      const { rows, count } = await listMembers(ctx, request.params.id);
      return ctx.respond.collection(rows, count);
    },
  }),
  route({
    method: 'POST',
    path: '/rooms/{id}/members',
    chain: ['rooms.rooms.read'],
    answers: { single: ROOM_MEMBER },
    description: 'Adds a member with a role (owners and moderators; the owner role by owners), or joins a room open to the workspace (member_mrn: the caller)',
    validate: { params: roomParams, payload: Joi.object({ member_mrn: Joi.memberMrn().required(), role: Joi.string().valid(...ROOM_ROLES) }) },
    async handler(request, ctx) {
      return ctx.respond.single(await addMember(ctx, request.params.id, request.payload));
    },
  }),
  route({
    method: 'PATCH',
    path: '/rooms/{id}/members/{member_mrn}',
    chain: ['rooms.rooms.read'],
    answers: { single: ROOM_MEMBER },
    description: "UpdateMember: a member's role (the room's owners); a room keeps one owner",
    validate: { params: memberParams, payload: Joi.object({ role: Joi.string().valid(...ROOM_ROLES).required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await updateMember(ctx, request.params.id, request.params.member_mrn, request.payload.role));
    },
  }),
  route({
    method: 'DELETE',
    path: '/rooms/{id}/members/{member_mrn}',
    chain: ['rooms.rooms.read'],
    answers: { single: ROOM_MEMBER_REMOVED },
    description: 'Removes a member (moderators remove members, owners anyone), or leaves the room (the member themselves)',
    validate: { params: memberParams },
    async handler(request, ctx) {
      return ctx.respond.single(await removeMember(ctx, request.params.id, request.params.member_mrn));
    },
  }),
  route({
    method: 'POST',
    path: '/rooms/{id}/sessions',
    chain: ['rooms.sessions.join'],
    answers: { single: SESSION_JOINED },
    description: "Joins the room's session: answers the signaling socket's address, the session to join and the ICE servers, and records the caller as present",
    validate: { params: roomParams },
    async handler(request, ctx) {
      return ctx.respond.single(await joinSession(ctx, request.params.id));
    },
  }),
  route({
    method: 'DELETE',
    path: '/rooms/{id}/sessions',
    chain: ['rooms.sessions.join'],
    answers: { single: SESSION_LEFT },
    description: "Leaves the room's session; member_mrn: an owner or moderator disconnects someone else",
    // A member removed a moment ago may still be in the session: they can be disconnected.
    validate: { params: roomParams, query: Joi.object({ member_mrn: Joi.memberMrn({ former: true }) }) },
    async handler(request, ctx) {
      return ctx.respond.single(await leaveSession(ctx, request.params.id, request.query.member_mrn as string | undefined));
    },
  }),
];
