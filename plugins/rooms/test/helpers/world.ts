/** What the Rooms app's tests share beyond `startWorld` of @wpk/testing: the app's keys and its signaling socket. */
import { openWelcomedSocket, type TestSocket } from '@wpk/testing';

/** Every key of the app but `rooms.rooms.manage`: what `world.member()` holds. */
export const ALL_KEYS = ['rooms.rooms.create', 'rooms.rooms.read', 'rooms.sessions.join'];

/** Opens the signaling socket (`/signaling`) of `subdomain` on the listening server at `url`, with an API key, and takes its welcome. */
export function openSignaling(url: string, subdomain: string, secret: string): Promise<TestSocket> {
  return openWelcomedSocket(url, subdomain, { path: '/signaling', headers: { authorization: `Bearer ${secret}` } });
}
