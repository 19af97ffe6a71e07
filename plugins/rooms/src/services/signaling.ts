import type { RoomsBaseContext } from './context.js';

/** What a client needs to join a signaling session (docs/live-updates.md, the signaling socket). */
export interface SignalingJoin {
  url: string;
  session: string;
  ice_servers: Array<{ urls: string[]; username?: string; credential?: string }>;
}

/** The session kind the app declares: `rooms/rooms/{room_id}` on the signaling socket. */
export const SESSION_KIND = 'rooms';

/** The join details of a room's session. */
export function sessionOf(ctx: RoomsBaseContext, roomId: string): SignalingJoin {
  return ctx.signaling.session(SESSION_KIND, roomId);
}

/** Closes a room's session for everyone (after the commit). */
export function endSession(ctx: RoomsBaseContext, roomId: string): void {
  ctx.signaling.end(SESSION_KIND, roomId);
}
