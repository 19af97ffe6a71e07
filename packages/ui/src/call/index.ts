/** `@wpk/ui/call`: the kit's call component (WebRTC over the platform's signaling socket) and the same-origin join page built on it, kept out of the kit's main entry so only the apps that hold calls carry them. */
export { WpkCall, type CallJoinTicket, type CallPeer, type CallState, type CallTransport } from './call.js';
export type { CallRecorder } from './recording.js';
export { JOIN_PAGE_API_VERSION, WpkJoinPage, mountJoinPage, sameOriginRequest, sessionsTransport, type JoinPageOptions } from './join-page.js';
