/**
 * The adapter a deployment plugs in for calls larger than a mesh carries (a selective forwarding
 * unit such as LiveKit): the platform keeps access and the app keeps the call, the SFU carries the
 * media. Shaped on LiveKit's server API (a room per session, an access token per participant).
 * No adapter ships with the kit (docs/live-updates.md, "Larger calls: an SFU").
 */
export interface SfuAdapter {
  /** A short name for logs and tickets (`livekit`). */
  readonly name: string;
  /** Creates (or returns) the room of one signaling session (`{app}/{kind}/{id}` of a workspace). */
  ensureRoom(input: { workspaceId: string; session: string; maxParticipants: number }): Promise<{ room: string }>;
  /**
   * Mints a short-lived token that lets one member into the room: the client connects to `url`
   * with it, instead of joining the mesh. Called after the platform admitted the member (layers
   * 1-5 and the app's own rule), so the SFU never judges access itself.
   */
  mintToken(input: { room: string; identity: string; name: string; canPublish: boolean; canSubscribe: boolean; ttlSeconds: number }): Promise<{ url: string; token: string; expires_at: string }>;
  /** Removes one member from the room (the app removed them from the call). */
  removeParticipant(input: { room: string; identity: string }): Promise<void>;
  /** Closes the room for everyone (the session ended). */
  deleteRoom(input: { room: string }): Promise<void>;
}
