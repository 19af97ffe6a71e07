import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Request, ServerRoute } from '@hapi/hapi';
import { Joi, recordSchema } from '@wpk/sdk';
import type { ObjectSchema } from 'joi';
import { WebSocketServer } from 'ws';
import { credentialsOf } from '../access/index.js';
import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
import { isTrustedOrigin } from '../server/index.js';
import { hashSecret, judgeCredentials, type LiveCredential, type LiveMember } from './access.js';
import { LiveHub, LIVE_PROTOCOL, type LiveWorkspace } from './hub.js';
import { LiveLog, NoteListener, type LivePublication, type LivePublisher } from './log.js';

/** The websocket's path (and of `GET /live`, which says who the socket would authenticate as). */
export const LIVE_PATH = '/live';
const MAX_MESSAGE_BYTES = 64 * 1024;

declare module '@hapi/hapi' {
  interface PluginProperties {
    live: { hub: LiveHub; publisher: LivePublisher; upgrades: { register(path: string, accept: SocketAcceptor): void } };
  }
}

/** Who an accepted websocket acts as: judged at the upgrade through layers 1-2 (its `GET` probe route and the credential). */
export interface OpenedSocket {
  workspace: LiveWorkspace;
  credential: LiveCredential;
  member: LiveMember;
}

/** Takes an upgrade that passed the checks of its path (`ws.handleUpgrade(...)`). */
export type SocketAcceptor = (request: IncomingMessage, socket: Duplex, head: Buffer, opened: OpenedSocket) => void;

/**
 * The `GET` route of a websocket path: answers who a socket opened with these credentials would
 * act as, and is what every upgrade of that path is judged by (host, version, credential, and for
 * a session cookie the same-origin rule).
 */
/** `GET /live`, `GET /signaling`: who a socket opened with the same credentials would act as. */
const SOCKET_ENDPOINT: ObjectSchema = recordSchema({
  protocol: Joi.string().description('The websocket subprotocol to ask for'),
  path: Joi.string(),
  member_id: Joi.string().guid(),
  workspace_id: Joi.string().guid(),
  subdomain: Joi.string(),
  credential: Joi.string().valid('session', 'api_key', 'app_token'),
}).id('SocketEndpoint');

export function socketProbeRoute(options: { path: string; protocol: string; what: string; noun: string; publicUrl: string }): ServerRoute {
  return {
    method: 'GET',
    path: options.path,
    options: {
      description: `Who a ${options.what} websocket opened with these credentials would act as (the upgrade to the websocket is on this same path)`,
      // Any member's credential, a scoped key too: each channel or session is judged when joined (layers 4-5).
      app: { wpk: { kind: 'api', scope: 'workspace' }, platformAccess: 'caller', answers: { single: SOCKET_ENDPOINT } },
    },
    handler: (request: Request) => {
      const credentials = credentialsOf(request);
      // A browser's socket carries the session cookie wherever the page came from: only this site's pages may open one.
      const origin = request.headers.origin;
      if (credentials.via.kind === 'session' && typeof origin === 'string' && !isTrustedOrigin(origin, request, options.publicUrl)) {
        return request.generateResponse({ error: `Origin ${JSON.stringify(origin.slice(0, 255))} may not open a ${options.noun} socket with this site's session` }).code(403);
      }
      const workspace = request.app.workspace!;
      return {
        data: { protocol: options.protocol, path: options.path, member_id: credentials.member.id, workspace_id: workspace.id, subdomain: workspace.subdomain, credential: credentials.via.kind },
        links: { self: options.path },
      };
    },
  };
}

const SESSION_COOKIE = /(?:^|;\s*)wpk_session=([^;]*)/;
const TOKEN_PROTOCOL = 'wpk.token.';

/**
 * An app's token offered as a websocket subprotocol (`wpk.token.{token}`): a browser cannot set
 * headers on a websocket, and an app's sandboxed frame has no cookie. The server never selects
 * that protocol (it answers the first one offered, `wpk.live.1`), so the token is not echoed.
 */
function protocolToken(request: IncomingMessage): string | null {
  const offered = request.headers['sec-websocket-protocol'];
  if (typeof offered !== 'string') return null;
  const entry = offered.split(',').map((value) => value.trim()).find((value) => value.startsWith(TOKEN_PROTOCOL));
  return entry ? entry.slice(TOKEN_PROTOCOL.length) : null;
}

/** The credential of an upgrade request, as layer 1 reads it: the Bearer key alone when one is sent, else the session cookie. */
function credentialOf(request: IncomingMessage): LiveCredential | null {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S*)\s*$/i.exec(header);
    return match ? { kind: 'api_key', hash: hashSecret(match[1]) } : null;
  }
  const cookie = typeof request.headers.cookie === 'string' ? SESSION_COOKIE.exec(request.headers.cookie) : null;
  return cookie && cookie[1] ? { kind: 'session', hash: hashSecret(decodeURIComponent(cookie[1])) } : null;
}

function reject(socket: Duplex, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 415: 'Unsupported Media Type' }[status] ?? 'Error';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}

/**
 * Live updates (docs/live-updates.md): the websocket at `/live` on the hapi listener (the `ws`
 * library in `noServer` mode), each upgrade authenticated by running `GET /live` through the
 * server with the upgrade's own headers — the same tenancy, version and credential checks
 * (layers 1-2) as any request; the channels' logs; the fan-out between processes (LISTEN/NOTIFY
 * on PostgreSQL, in-process on the embedded database); and the publisher the apps' `ctx.live`
 * goes through after their transaction commits.
 */
export const livePlugin = defineCorePlugin({
  name: 'live',
  deps: { logger: inputs.logger, clock: inputs.clock, config: inputs.config, db: plugins.db, tenancy: plugins.tenancy, appTokens: plugins['app-tokens'] },
  // Its upgrades are judged by `GET /live` through the auth scheme and the platform guard.
  after: ['server', 'identity', 'api-keys'],
  register(server, { logger, clock, config, db, tenancy, appTokens }) {
    const database = db.database;
    const sequelize = database.sequelize;
    let hub: LiveHub | null = null;
    const log = new LiveLog(sequelize, !database.isEmbedded, (note) => hub!.receive(note));
    hub = new LiveHub(sequelize, log, logger.child({ concern: 'live' }), clock);
    const live = hub;
    const listener = database.isEmbedded ? null : new NoteListener(database.url, (note) => live.receive(note), logger.child({ concern: 'live' }));
    const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

    server.route(socketProbeRoute({ path: LIVE_PATH, protocol: LIVE_PROTOCOL, what: 'live-updates', noun: 'live', publicUrl: config.publicUrl }));

    // One `upgrade` listener for every websocket of the platform (live updates, signaling): each
    // path is judged the same way, by running its `GET` probe route with the upgrade's headers.
    const upgrades = new Map<string, SocketAcceptor>();
    upgrades.set(LIVE_PATH, (request, socket, head, opened) => sockets.handleUpgrade(request, socket, head, (ws) => live.accept(ws, opened.workspace, opened.credential, opened.member)));
    const upgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(request.url ?? '/', 'http://upgrade.invalid');
      const accept = upgrades.get(url.pathname);
      if (!accept) return reject(socket, 404, { error: `No websocket at ${url.pathname.slice(0, 200)}` });
      socket.on('error', () => socket.destroy());
      const version = request.headers['x-api-version'] ?? url.searchParams.get('api_version') ?? undefined;
      const headers: Record<string, string> = {};
      for (const name of ['host', 'cookie', 'authorization', 'origin', 'user-agent']) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      if (typeof version === 'string') headers['x-api-version'] = version;
      const token = protocolToken(request);
      if (token !== null && headers.authorization === undefined) headers.authorization = `Bearer ${token}`;
      const probe = await server.inject({ method: 'GET', url: url.pathname, headers, remoteAddress: request.socket.remoteAddress ?? '127.0.0.1' });
      if (probe.statusCode !== 200) return reject(socket, probe.statusCode, JSON.parse(probe.payload || '{"error":"Refused"}'));
      const data = (JSON.parse(probe.payload) as { data: { member_id: string; workspace_id: string; subdomain: string } }).data;
      let credential = credentialOf(request);
      if (token !== null && headers.authorization === `Bearer ${token}`) {
        // The probe accepted the app's token: the socket is judged by its session from now on, and joins its app only.
        const app = await appTokens.tokens.authenticate(token);
        credential = app && app.via.kind === 'app_token' ? { kind: 'session_id', hash: app.via.sessionId, app: app.via.app } : null;
      }
      if (!credential) return reject(socket, 401, { error: 'Authentication required' });
      const workspace = await tenancy.workspaces.findById(data.workspace_id);
      if (!workspace) return reject(socket, 404, { error: 'No such workspace' });
      const [verdict] = await judgeCredentials(sequelize, workspace.id, [credential], clock(), null);
      if (!verdict.allowed) return reject(socket, 401, { error: 'Authentication required' });
      accept(request, socket, head, { workspace: { id: workspace.id, subdomain: workspace.subdomain, name: workspace.name, plan: workspace.plan }, credential, member: verdict.member });
    };
    server.listener.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      upgrade(request, socket, head).catch((error) => {
        logger.error({ err: error }, 'live: an upgrade failed');
        reject(socket, 500, { error: 'Internal error' });
      });
    });

    server.ext('onPreStart', async () => {
      live.start();
      await listener?.start();
    });
    server.ext('onPreStop', async () => {
      await live.stop();
      await listener?.stop();
    });

    // The platform's own channel: a member's notifications (docs/notifications.md, "Live").
    live.declareChannels('account', {
      notifications: { permission: 'account.notifications.read', platform: true, authorize: async ({ member, id }) => id === member.id },
    });
    return {
      hub: live,
      upgrades: {
        register(path: string, accept: SocketAcceptor) {
          if (upgrades.has(path)) throw new Error(`A websocket is already served at ${path}`);
          upgrades.set(path, accept);
        },
      },
      publisher: { publish: (workspaceId: string, publications: readonly LivePublication[]) => log.publish(workspaceId, publications) },
    };
  },
});
