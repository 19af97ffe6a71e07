/** What the Rooms app's tests share beyond `startWorld` of @wpk/testing: the app's keys (sockets: `listenForSockets` of @wpk/testing). */

/** Every key of the app but `rooms.rooms.manage`: what `world.member()` holds. */
export const ALL_KEYS = ['rooms.rooms.create', 'rooms.rooms.read', 'rooms.sessions.join'];
