import { mountJoinPage } from '@wpk/ui/call';
import type { Room } from './api.js';

/**
 * `join.html?room={id}`: the room's session, top-level on the workspace's origin (the camera),
 * with the session cookie: the kit's join page (`@wpk/ui/call`) on GET /rooms/{id}, joining
 * through POST and DELETE /rooms/{id}/sessions.
 */
export function mountRoomsJoinPage(): void {
  mountJoinPage<Room>({ tag: 'rooms-join-page', param: 'room', path: '/rooms/{id}', back: '/app/rooms/rooms/{id}', noun: 'room', app: 'Rooms', title: (room) => room.name });
}
