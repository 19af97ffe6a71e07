/** What the route-table guards seed of the Rooms app: a room with the workspace's member in it. */

/** A call to the API as the workspace's owner: answers `data`, throws on anything but 200. */
type OwnerCall = (method: string, url: string, body?: unknown) => Promise<any>;

/** The Rooms app's seeded records. */
export type RoomsSeedKind = 'room';

/** Path parameters of the Rooms app's routes, by first path segment. */
export const ROOMS_PARAM_KINDS: Record<string, Record<string, RoomsSeedKind | 'member_mrn'>> = {
  rooms: { id: 'room', member_mrn: 'member_mrn' },
};

/** Body fields naming Rooms records (none beyond `member_mrn`, which core's guard maps already). */
export const ROOMS_FIELD_KINDS: Record<string, RoomsSeedKind> = {};

/** Installs the app and creates a private room with the member in it, present in its session. */
export async function seedRooms(call: OwnerCall, marker: string, memberMrn: string): Promise<Record<RoomsSeedKind, string>> {
  await call('POST', '/applications/rooms/installations', {});
  const room = await call('POST', '/rooms', { name: `${marker} room`, description: marker, visibility: 'private', members: [{ member_mrn: memberMrn, role: 'moderator' }] });
  await call('POST', `/rooms/${room.id}/sessions`, {});
  return { room: room.id };
}
