import type { SignalingTicket } from '@wpk/sdk';
import { WebSocketServer } from 'ws';
import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
import { socketProbeRoute } from '../live/index.js';
import { SignalingHub, SIGNALING_PROTOCOL } from './hub.js';

/** The signaling websocket's path (and of `GET /signaling`, which says who the socket would act as). */
export const SIGNALING_PATH = '/signaling';
const MAX_MESSAGE_BYTES = 64 * 1024;

/** What the apps layer uses: tickets for `ctx.signaling.session`, and ending or trimming sessions after a commit. */
export interface SignalingService {
  hub: SignalingHub;
  /** The ticket of session `{namespace}/{kind}/{id}` in a workspace. */
  ticket(workspace: { subdomain: string }, session: string): SignalingTicket;
}

declare module '@hapi/hapi' {
  interface PluginProperties {
    signaling: { service: SignalingService };
  }
}

/**
 * WebRTC signaling (docs/live-updates.md, "Signaling"): the second websocket, at `/signaling`,
 * opened through the live plugin's upgrade path (the same host, version, credential and origin
 * checks, through `GET /signaling`), relaying offers, answers and ICE candidates between the peers
 * of one session. Apps declare session kinds; `ctx.signaling` hands out tickets carrying the
 * configured STUN/TURN servers (`WEBRTC_ICE_SERVERS`).
 */
export const signalingPlugin = defineCorePlugin({
  name: 'signaling',
  deps: { logger: inputs.logger, clock: inputs.clock, config: inputs.config, db: plugins.db, live: plugins.live },
  after: ['server'],
  register(server, { logger, clock, config, db, live }) {
    const sequelize = db.database.sequelize;
    const hub = new SignalingHub(sequelize, logger.child({ concern: 'signaling' }), clock, config.webrtc.meshMaxPeers);
    const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
    server.route(socketProbeRoute({ path: SIGNALING_PATH, protocol: SIGNALING_PROTOCOL, what: 'WebRTC signaling', noun: 'signaling', publicUrl: config.publicUrl }));
    live.upgrades.register(SIGNALING_PATH, (request, socket, head, opened) =>
      sockets.handleUpgrade(request, socket, head, (ws) => hub.accept(ws, opened.workspace, opened.credential, opened.member)),
    );
    const base = new URL(config.publicUrl);
    const scheme = base.protocol === 'https:' ? 'wss:' : 'ws:';
    const service: SignalingService = {
      hub,
      ticket(workspace, session) {
        return {
          url: `${scheme}//${workspace.subdomain}.${base.host}${SIGNALING_PATH}`,
          session,
          ice_servers: config.webrtc.iceServers.map((entry) => ({ ...entry, urls: [...entry.urls] })),
        };
      },
    };
    server.ext('onPreStart', () => hub.start());
    server.ext('onPreStop', () => hub.stop());
    return { service };
  },
});
