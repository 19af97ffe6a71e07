import { memberMrn, type SearchDocument } from '@wpk/sdk';
import type { Presence, Room, RoomMember, RoomRole } from '../models/index.js';

/** A room as the API answers it; `role` is the caller's role in it (null: not a member). */
export function presentRoom(room: Room, extra: { role: RoomRole | null; member_count: number; present_mrns: string[] }) {
  return {
    id: room.id,
    name: room.name,
    description: room.description,
    visibility: room.visibility,
    locked: room.locked,
    max_participants: room.max_participants,
    creator_mrn: memberMrn(room.creator_id),
    role: extra.role,
    member_count: extra.member_count,
    present_mrns: extra.present_mrns,
    created_at: room.created_at,
    updated_at: room.updated_at,
  };
}

/** A room member as the API answers it. */
export function presentMember(member: RoomMember, present: boolean) {
  return {
    room_id: member.room_id,
    member_id: member.member_id,
    member_mrn: memberMrn(member.member_id),
    role: member.role,
    present,
    added_by_mrn: member.added_by ? memberMrn(member.added_by) : null,
    added_at: member.created_at,
    updated_at: member.updated_at,
  };
}

/** Someone in the room's session. */
export function presentPresence(presence: Presence) {
  return { member_mrn: memberMrn(presence.member_id), joined_at: presence.joined_at };
}

/**
 * The search document of a room: a room open to the workspace is found by everyone who may
 * search rooms; a private one by its members only (`readers`).
 */
export function roomDocument(room: Room, memberIds: string[]): SearchDocument {
  return {
    type: 'room',
    id: room.id,
    badge: room.locked ? 'Locked' : '',
    title: room.name,
    subtitle: room.description.slice(0, 200) || 'Room',
    url: `/rooms/${room.id}`,
    names: [room.name],
    details: [room.description],
    readers: room.visibility === 'private' ? memberIds.slice(0, 1000) : null,
  };
}
