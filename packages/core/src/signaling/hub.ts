import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import type { WebSocket } from 'ws';
import type { PermissionSet } from '../access/index.js';
import { judgeCredentials, type ChannelGate, type LiveCredential, type LiveMember, type LiveWorkspace } from '../live/index.js';

/** The protocol's name, answered in `welcome` (docs/live-updates.md, "Signaling"). */
export const SIGNALING_PROTOCOL = 'wpk.signaling.1';
/** Close code: the credential no longer opens the workspace (as on the live socket). */
export const SIGNALING_CLOSE_ACCESS_LOST = 4401;
/** A peer's credential is judged again before relaying when its last judgement is older than this. */
export const SIGNALING_REJUDGE_MS = 10_000;

/** What an app declares for one kind of signaling session. */
export interface SessionKind {
  /** The permission key a peer needs (layer 5); layer 4 (the app's access) is implied. */
  permission: string;
  /** The app's own rule for one session id (is the member a participant of the call?), run on join. */
  authorize?(input: { workspace: LiveWorkspace; member: LiveMember; permissions: PermissionSet; id: string }): Promise<boolean>;
}

interface Peer {
  id: string;
  socket: WebSocket;
  workspace: LiveWorkspace;
  credential: LiveCredential;
  member: LiveMember;
  alive: boolean;
  /** The session joined (`{app}/{kind}/{id}`), or null. */
  session: string | null;
  gate: ChannelGate | null;
  judgedAt: number;
  /** Joins and judgements of this peer, one at a time. */
  chain: Promise<void>;
}

const SESSION_PATTERN = /^([a-z][a-z0-9.-]{0,120})\/([a-z][a-z0-9-]{0,40})\/([A-Za-z0-9_-]{1,100})$/;

/** A parsed session name: `{app namespace}/{kind}/{id}`. */
export function parseSession(session: unknown): { namespace: string; kind: string; id: string } | null {
  if (typeof session !== 'string') return null;
  const match = SESSION_PATTERN.exec(session);
  return match ? { namespace: match[1], kind: match[2], id: match[3] } : null;
}

type ClientMessage = { type?: unknown; session?: unknown; to?: unknown; data?: unknown; ref?: unknown };

/**
 * The signaling hub of one process: its sockets (one peer each) and the sessions they joined.
 * A peer joins one session at a time, after layers 4-5 of the session's app and the app's own
 * rule; it may then send `signal` messages (an SDP offer or answer, an ICE candidate: anything
 * JSON) to another peer of the same session, and nowhere else. Sessions live in this process's
 * memory: every peer of one session must reach the same server (docs/live-updates.md).
 */
export class SignalingHub {
  private readonly peers = new Set<Peer>();
  private readonly sessions = new Map<string, Map<string, Peer>>();
  private readonly kinds = new Map<string, Map<string, SessionKind>>();
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly logger: Logger,
    private readonly clock: () => Date,
    private readonly maxPeers: number,
  ) {}

  /** Declares an app's session kinds (the apps layer calls it at boot). */
  declareKinds(namespace: string, kinds: Record<string, SessionKind>): void {
    this.kinds.set(namespace, new Map(Object.entries(kinds)));
  }

  /** Whether the app declared this kind of session. */
  hasKind(namespace: string, kind: string): boolean {
    return this.kinds.get(namespace)?.has(kind) === true;
  }

  /** Sockets open on this process. */
  get size(): number {
    return this.peers.size;
  }

  /** The peers of one session on this process: `[{peer_id, member_id}]`, oldest first. */
  members(workspaceId: string, session: string): Array<{ peer_id: string; member_id: string }> {
    return [...(this.sessions.get(`${workspaceId}|${session}`)?.values() ?? [])].map((peer) => ({ peer_id: peer.id, member_id: peer.member.id }));
  }

  start(): void {
    this.heartbeat ??= setInterval(() => {
      for (const peer of this.peers) {
        if (!peer.alive) {
          peer.socket.terminate();
          continue;
        }
        peer.alive = false;
        peer.socket.ping();
      }
    }, 30_000);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    for (const peer of [...this.peers]) {
      this.drop(peer);
      peer.socket.close(1001, 'server stopping');
    }
  }

  /** Takes an authenticated socket (layers 1-2 passed at the upgrade). */
  accept(socket: WebSocket, workspace: LiveWorkspace, credential: LiveCredential, member: LiveMember): void {
    const peer: Peer = { id: randomUUID(), socket, workspace, credential, member, alive: true, session: null, gate: null, judgedAt: 0, chain: Promise.resolve() };
    this.peers.add(peer);
    socket.on('pong', () => {
      peer.alive = true;
    });
    socket.on('message', (raw, isBinary) => {
      if (isBinary) return this.send(peer, { type: 'error', status: 400, error: 'Binary frames are not part of the protocol' });
      let message: ClientMessage;
      try {
        message = JSON.parse(raw.toString()) as ClientMessage;
      } catch {
        return this.send(peer, { type: 'error', status: 400, error: 'A message must be a JSON object' });
      }
      // One message of a peer at a time, in order: a signal sent right after a join waits for it.
      const run = peer.chain.then(() => this.handle(peer, message));
      peer.chain = run.catch((error) => {
        this.logger.error({ err: error }, 'signaling: handling a message failed');
        this.send(peer, { type: 'error', ref: refOf(message), status: 500, error: 'Internal error' });
      });
    });
    socket.on('close', () => this.drop(peer));
    socket.on('error', () => this.drop(peer));
    this.send(peer, { type: 'welcome', protocol: SIGNALING_PROTOCOL, peer_id: peer.id, member_id: member.id, workspace_id: workspace.id });
  }

  /** Ends a session: every peer in it gets `ended` and is out of it (the socket stays open). */
  end(workspaceId: string, session: string): void {
    const peers = this.sessions.get(`${workspaceId}|${session}`);
    if (!peers) return;
    for (const peer of [...peers.values()]) {
      this.leave(peer, false);
      this.send(peer, { type: 'ended', session });
    }
  }

  /** Removes these members' peers from a session: each gets `removed`, the others `peer.left`. */
  remove(workspaceId: string, session: string, memberIds: readonly string[]): void {
    const peers = this.sessions.get(`${workspaceId}|${session}`);
    if (!peers) return;
    const out = new Set(memberIds);
    for (const peer of [...peers.values()]) {
      if (!out.has(peer.member.id)) continue;
      this.leave(peer, true);
      this.send(peer, { type: 'removed', session });
    }
  }

  private async handle(peer: Peer, message: ClientMessage): Promise<void> {
    if (!message || typeof message !== 'object' || Array.isArray(message)) return this.send(peer, { type: 'error', status: 400, error: 'A message must be a JSON object' });
    const ref = refOf(message);
    switch (message.type) {
      case 'ping':
        return this.send(peer, { type: 'pong', ...(ref ? { ref } : {}) });
      case 'join':
        return this.join(peer, message, ref);
      case 'leave': {
        if (!peer.session) return this.send(peer, { type: 'error', ref, status: 404, error: 'Not in a session' });
        const session = peer.session;
        this.leave(peer, true);
        return this.send(peer, { type: 'left', ref, session });
      }
      case 'signal':
        return this.signal(peer, message, ref);
      default:
        return this.send(peer, { type: 'error', ref, status: 400, error: `Unknown message type ${JSON.stringify(String(message.type ?? '')).slice(0, 60)}: expected join, leave, signal or ping` });
    }
  }

  private async join(peer: Peer, message: ClientMessage, ref: string | undefined): Promise<void> {
    const parsed = parseSession(message.session);
    if (!parsed) return this.send(peer, { type: 'error', ref, status: 400, error: 'session must be {app}/{kind}/{id} (letters, digits, - and _)' });
    const session = message.session as string;
    if (peer.session) return this.send(peer, { type: 'error', ref, session, status: 409, error: `Already in session ${peer.session}: leave it first` });
    const kind = this.kinds.get(parsed.namespace)?.get(parsed.kind);
    if (!kind) return this.send(peer, { type: 'error', ref, session, status: 404, error: `No signaling session kind ${parsed.kind} in app ${parsed.namespace}` });
    // A socket opened with an app's token joins that app's sessions only.
    if (peer.credential.app !== undefined && peer.credential.app !== parsed.namespace) return this.send(peer, { type: 'error', ref, session, status: 403, error: "You don't have access to this app" });
    const gate: ChannelGate = { namespace: parsed.namespace, permission: kind.permission };
    const [verdict] = await judgeCredentials(this.sequelize, peer.workspace.id, [peer.credential], this.clock(), gate);
    if (!verdict.allowed) {
      if (verdict.layer <= 2) return this.lose(peer);
      return this.send(peer, { type: 'error', ref, session, status: 403, error: verdict.layer === 4 ? "You don't have access to this app" : verdict.reason });
    }
    if (kind.authorize && !(await kind.authorize({ workspace: peer.workspace, member: verdict.member, permissions: verdict.permissions!, id: parsed.id }))) {
      return this.send(peer, { type: 'error', ref, session, status: 403, error: `You may not join ${session}` });
    }
    if (!this.peers.has(peer)) return;
    const key = `${peer.workspace.id}|${session}`;
    let members = this.sessions.get(key);
    if (members && members.size >= this.maxPeers) {
      return this.send(peer, { type: 'error', ref, session, status: 429, error: `Session ${session} is full: a peer-to-peer session takes at most ${this.maxPeers} peers` });
    }
    if (!members) {
      members = new Map();
      this.sessions.set(key, members);
    }
    const others = [...members.values()];
    members.set(peer.id, peer);
    peer.session = session;
    peer.gate = gate;
    peer.judgedAt = Date.now();
    this.send(peer, { type: 'joined', ref, session, peer_id: peer.id, peers: others.map((other) => ({ peer_id: other.id, member_id: other.member.id, name: other.member.name })) });
    for (const other of others) this.send(other, { type: 'peer.joined', session, peer_id: peer.id, member_id: peer.member.id, name: peer.member.name });
  }

  private async signal(peer: Peer, message: ClientMessage, ref: string | undefined): Promise<void> {
    if (!peer.session) return this.send(peer, { type: 'error', ref, status: 409, error: 'Join a session before sending signals' });
    if (typeof message.to !== 'string' || message.to.length === 0 || message.to.length > 100) return this.send(peer, { type: 'error', ref, status: 400, error: 'to must be the peer_id of a peer in your session' });
    if (message.data === undefined) return this.send(peer, { type: 'error', ref, status: 400, error: 'data is required (an SDP offer or answer, an ICE candidate)' });
    // Access is judged again before relaying once the last judgement is old: a revoked key, a
    // removed member or a role that lost the app is out within SIGNALING_REJUDGE_MS.
    if (Date.now() - peer.judgedAt > SIGNALING_REJUDGE_MS) {
      const [verdict] = await judgeCredentials(this.sequelize, peer.workspace.id, [peer.credential], this.clock(), peer.gate);
      if (!verdict.allowed) {
        if (verdict.layer <= 2) return this.lose(peer);
        const session = peer.session;
        this.leave(peer, true);
        return this.send(peer, { type: 'removed', session, error: verdict.layer === 4 ? "You don't have access to this app" : verdict.reason });
      }
      peer.judgedAt = Date.now();
      if (!peer.session) return;
    }
    const target = this.sessions.get(`${peer.workspace.id}|${peer.session}`)?.get(message.to);
    if (!target || target === peer) return this.send(peer, { type: 'error', ref, status: 404, error: `No peer ${JSON.stringify(message.to.slice(0, 100))} in session ${peer.session}` });
    this.send(target, { type: 'signal', session: peer.session, from: peer.id, member_id: peer.member.id, data: message.data });
  }

  /** Takes the peer out of its session; `announce`: the others hear `peer.left`. */
  private leave(peer: Peer, announce: boolean): void {
    const session = peer.session;
    if (!session) return;
    peer.session = null;
    peer.gate = null;
    const key = `${peer.workspace.id}|${session}`;
    const members = this.sessions.get(key);
    if (!members) return;
    members.delete(peer.id);
    if (members.size === 0) this.sessions.delete(key);
    if (announce) for (const other of members.values()) this.send(other, { type: 'peer.left', session, peer_id: peer.id, member_id: peer.member.id });
  }

  private drop(peer: Peer): void {
    if (!this.peers.delete(peer)) return;
    this.leave(peer, true);
  }

  private lose(peer: Peer): void {
    if (!this.peers.has(peer)) return;
    this.drop(peer);
    peer.socket.close(SIGNALING_CLOSE_ACCESS_LOST, 'access lost');
  }

  private send(peer: Peer, message: Record<string, unknown>): void {
    if (peer.socket.readyState !== 1) return;
    peer.socket.send(JSON.stringify(message));
  }
}

function refOf(message: ClientMessage): string | undefined {
  return typeof message?.ref === 'string' ? message.ref.slice(0, 100) : undefined;
}
