import type { SignalingTicket } from '@wpk/sdk';
import type { RoomsBaseContext } from '../kit.js';

/** The session kind the app declares: sessions `rooms/rooms/{room_id}` on the signaling socket. */
export const SESSION_KIND = 'rooms';

/** What a client needs to join a room's session. */
export function sessionOf(ctx: RoomsBaseContext, roomId: string): SignalingTicket {
  return ctx.signaling.session(SESSION_KIND, roomId);
}

/** Closes a room's session for everyone (after the commit). */
export function endSession(ctx: RoomsBaseContext, roomId: string): void {
  ctx.signaling.end(SESSION_KIND, roomId);
}

/** Takes members' peers out of a room's session (after the commit): they left, were disconnected or removed. */
export function dropFromSession(ctx: RoomsBaseContext, roomId: string, memberIds: string[]): void {
  if (memberIds.length > 0) ctx.signaling.remove(SESSION_KIND, roomId, memberIds);
}
