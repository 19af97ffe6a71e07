export { webRtcConfig, type WebRtcConfig } from './config.js';
export { SIGNALING_CLOSE_ACCESS_LOST, SIGNALING_PROTOCOL, SIGNALING_REJUDGE_MS, SignalingHub, parseSession, type SessionKind } from './hub.js';
export { SIGNALING_PATH, signalingPlugin, type SignalingService } from './plugin.js';
export type { SfuAdapter } from './sfu.js';
