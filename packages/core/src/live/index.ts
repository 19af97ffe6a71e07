export { hashSecret, judgeCredentials, type ChannelGate, type LiveCredential, type LiveMember, type LiveVerdict } from './access.js';
export { CLOSE_ACCESS_LOST, LIVE_PROTOCOL, LiveHub, MAX_SUBSCRIPTIONS, TYPING_INTERVAL_MS, parseChannel, type ChannelKind, type LiveWorkspace } from './hub.js';
export { CHANNEL_LOG_SIZE, NOTIFY_INLINE_LIMIT, type LivePublication, type LivePublisher } from './log.js';
export { LIVE_PATH, livePlugin, socketProbeRoute, type OpenedSocket, type SocketAcceptor } from './plugin.js';
