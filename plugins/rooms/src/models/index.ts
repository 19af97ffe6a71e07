import { DataTypes, defineModel } from '@wpk/sdk';

/** Who may find and join a room: everyone the app lets in (`workspace`), or its members only (`private`). */
export const VISIBILITIES = ['workspace', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** A member's role in a room, strongest first. */
export const ROOM_ROLES = ['owner', 'moderator', 'member'] as const;
export type RoomRole = (typeof ROOM_ROLES)[number];

/** A persistent room. `locked`: only its owners and moderators may join its session. */
export interface Room {
  id: string;
  name: string;
  description: string;
  visibility: Visibility;
  locked: boolean;
  max_participants: number;
  creator_id: string;
  created_at: Date;
  updated_at: Date;
}

export const rooms = defineModel<Room>('rooms', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  name: { type: DataTypes.STRING(100), allowNull: false },
  description: { type: DataTypes.STRING(1000), allowNull: false, defaultValue: '' },
  visibility: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'workspace' },
  locked: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
  max_participants: { type: DataTypes.INTEGER, allowNull: false },
  creator_id: { type: DataTypes.UUID, allowNull: false },
});

/** A member of a room, with their role. */
export interface RoomMember {
  room_id: string;
  member_id: string;
  role: RoomRole;
  added_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export const roomMembers = defineModel<RoomMember>('room_members', {
  room_id: { type: DataTypes.UUID, primaryKey: true },
  member_id: { type: DataTypes.UUID, primaryKey: true },
  role: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'member' },
  added_by: { type: DataTypes.UUID, allowNull: true },
});

/** Someone in the room's session right now (joined, not left yet). */
export interface Presence {
  room_id: string;
  member_id: string;
  joined_at: Date;
  created_at: Date;
  updated_at: Date;
}

export const presences = defineModel<Presence>('presences', {
  room_id: { type: DataTypes.UUID, primaryKey: true },
  member_id: { type: DataTypes.UUID, primaryKey: true },
  joined_at: { type: DataTypes.DATE, allowNull: false },
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { rooms, roomMembers, presences };

export type Models = typeof models;
