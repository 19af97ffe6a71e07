import type { IceServer } from '@wpk/sdk';

/** `WEBRTC_*`: what the signaling socket hands to WebRTC clients. */
export interface WebRtcConfig {
  /** STUN/TURN servers (`WEBRTC_ICE_SERVERS`, a JSON array of `{urls, username?, credential?}`); default none. */
  iceServers: IceServer[];
  /** Most peers in one mesh session (`WEBRTC_MESH_MAX_PEERS`, 2-50, default 8). */
  meshMaxPeers: number;
}

const ICE_URL = /^(stun|stuns|turn|turns):[^\s]{1,500}$/;

/**
 * Reads and checks `WEBRTC_ICE_SERVERS` and `WEBRTC_MESH_MAX_PEERS`; a bad value stops start-up
 * with a message naming the variable (never echoing a TURN credential).
 */
export function webRtcConfig(input: Partial<WebRtcConfig> = {}, env: NodeJS.ProcessEnv = process.env): WebRtcConfig {
  let iceServers: IceServer[] = [];
  if (input.iceServers) iceServers = input.iceServers;
  else if (env.WEBRTC_ICE_SERVERS) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(env.WEBRTC_ICE_SERVERS);
    } catch {
      throw new Error('WEBRTC_ICE_SERVERS must be a JSON array of {"urls": [...], "username"?, "credential"?} objects (it is not JSON)');
    }
    iceServers = iceServersOf(parsed);
  }
  const maxRaw = input.meshMaxPeers ?? (env.WEBRTC_MESH_MAX_PEERS || undefined);
  const meshMaxPeers = maxRaw === undefined ? 8 : Number(maxRaw);
  if (!Number.isInteger(meshMaxPeers) || meshMaxPeers < 2 || meshMaxPeers > 50) throw new Error(`WEBRTC_MESH_MAX_PEERS must be an integer from 2 to 50, got ${JSON.stringify(maxRaw)}`);
  return { iceServers, meshMaxPeers };
}

function iceServersOf(value: unknown): IceServer[] {
  const refuse = (why: string) => new Error(`WEBRTC_ICE_SERVERS: ${why} (expected a JSON array of {"urls": ["stun:host:3478"], "username"?, "credential"?})`);
  if (!Array.isArray(value) || value.length > 20) throw refuse('not an array of at most 20 servers');
  return value.map((entry, index) => {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw refuse(`entry ${index} is not an object`);
    const { urls, username, credential } = entry as Record<string, unknown>;
    const list = typeof urls === 'string' ? [urls] : urls;
    if (!Array.isArray(list) || list.length === 0 || list.length > 10 || !list.every((url) => typeof url === 'string' && ICE_URL.test(url))) {
      throw refuse(`entry ${index}: urls must be 1-10 stun:, stuns:, turn: or turns: URLs`);
    }
    if (username !== undefined && (typeof username !== 'string' || username.length > 500)) throw refuse(`entry ${index}: username must be a string`);
    if (credential !== undefined && (typeof credential !== 'string' || credential.length > 500)) throw refuse(`entry ${index}: credential must be a string`);
    const server: IceServer = { urls: [...(list as string[])] };
    if (username !== undefined) server.username = username as string;
    if (credential !== undefined) server.credential = credential as string;
    return server;
  });
}
