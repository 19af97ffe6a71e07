/** `@wpk/ui/call`: the kit's call component (WebRTC over the platform's signaling socket), kept out of the kit's main entry so only the apps that hold calls carry it. */
export { WpkCall, type CallJoinTicket, type CallPeer, type CallState, type CallTransport } from './call.js';
