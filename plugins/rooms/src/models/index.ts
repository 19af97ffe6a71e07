import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** Who may find and join a room: everyone the app lets in (`workspace`), or its members only (`private`). */
export const VISIBILITIES = ['workspace', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** A member's role in a room, strongest first. */
export const ROOM_ROLES = ['owner', 'moderator', 'member'] as const;
export type RoomRole = (typeof ROOM_ROLES)[number];

/** A persistent room. `locked`: only its owners and moderators may join its session. */
export type Room = DeclaredRow<typeof rooms>;

export const rooms = defineModel('rooms', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(100),
  description: column.string(1000).default(''),
  visibility: column.enum(VISIBILITIES, 10).default('workspace'),
  locked: column.boolean().default(false),
  max_participants: column.integer(),
  creator_id: column.uuid(),
});

/** A member of a room, with their role. */
export type RoomMember = DeclaredRow<typeof roomMembers>;

export const roomMembers = defineModel('room_members', {
  room_id: column.uuid().primaryKey(),
  member_id: column.uuid().primaryKey(),
  role: column.enum(ROOM_ROLES, 10).default('member'),
  added_by: column.uuid().nullable(),
});

/** Someone in the room's session right now (joined, not left yet). */
export type Presence = DeclaredRow<typeof presences>;

export const presences = defineModel('presences', {
  room_id: column.uuid().primaryKey(),
  member_id: column.uuid().primaryKey(),
  joined_at: column.date(),
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { rooms, roomMembers, presences };

export type Models = typeof models;
