import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import type { WebSocket } from 'ws';
import { PermissionSet } from '../access/index.js';
import { judgeCredentials, type ChannelGate, type LiveCredential, type LiveMember } from './access.js';
import type { LiveLog, LiveNote, LoggedEvent } from './log.js';

/** The protocol's name, answered in `welcome` (docs/live-updates.md). */
export const LIVE_PROTOCOL = 'wpk.live.1';
/** Close codes of the protocol. */
export const CLOSE_ACCESS_LOST = 4401;
/** The socket did not read what it was sent: more than the send-buffer limit waited for it. */
export const CLOSE_TOO_SLOW = 4408;
/**
 * The most bytes a socket may leave unread (queued in this process for it) before it is closed as
 * too slow, so a slow or stalled reader never holds the process's memory or delays the others'
 * messages; it reconnects and resumes with `since` (1 MiB, as Centrifugo's client queue).
 */
export const SEND_BUFFER_LIMIT = 1024 * 1024;
/** How long a socket closed as too slow has to finish its closing handshake before it is cut. */
const SLOW_CLOSE_GRACE_MS = 5000;
/** Most channels one socket may follow at once. */
export const MAX_SUBSCRIPTIONS = 100;
/** A socket's typing signals on one channel go out at most this often (the rest are dropped). */
export const TYPING_INTERVAL_MS = 2000;
/**
 * A socket's signals on one channel go out at most this often: 20 a second. One sent sooner waits
 * for the interval's end, replacing any that waited, so the last (where a pointer stopped) always
 * goes out.
 */
export const SIGNAL_INTERVAL_MS = 50;
/** The largest `data` of a signal, as JSON. */
export const SIGNAL_MAX_BYTES = 2048;

/** What an app declares for one kind of channel (`defineApp(..., { live: { chats: {...} } })`). */
export interface ChannelKind {
  /** The permission key a subscriber needs (layer 5); layer 4 (the app's access) is implied. */
  permission: string;
  /** The app's own rule for one channel id (is the member a participant?), run at subscribe. */
  authorize?(input: { workspace: LiveWorkspace; member: LiveMember; permissions: PermissionSet; id: string }): Promise<boolean>;
  /** Whether subscribers may relay ephemeral `signal` messages (cursors) to each other. */
  signals?: boolean;
  /**
   * A channel of the platform's own (`account/notifications/{member_id}`), not an app's: no app
   * access or permission (layers 4-5) applies; `authorize` alone decides, after layers 1-2.
   */
  platform?: boolean;
}

export interface LiveWorkspace {
  id: string;
  subdomain: string;
  name: string;
  plan: string;
}

interface Connection {
  id: string;
  socket: WebSocket;
  workspace: LiveWorkspace;
  credential: LiveCredential;
  member: LiveMember;
  subscriptions: Map<string, Subscription>;
  alive: boolean;
  /** When the socket last sent a typing signal, by channel. */
  typedAt: Map<string, number>;
  /** When the socket last sent a signal, by channel. */
  signalledAt: Map<string, number>;
  /** The signal waiting for its channel's interval to end (the latest one sent), by channel. */
  signalWaiting: Map<string, { data: Record<string, unknown>; timer: NodeJS.Timeout }>;
}

interface Subscription {
  connection: Connection;
  channel: string;
  /** The last event id sent to this socket on the channel. */
  cursor: bigint;
}

interface ChannelState {
  workspaceId: string;
  channel: string;
  gate: ChannelGate | null;
  subscriptions: Set<Subscription>;
  /** The last event id processed here (null until the first subscriber read it). */
  last: bigint | null;
  queue: LiveNote[];
  chain: Promise<void>;
}

/** How often sockets are pinged and this process's presence rows vouched for. */
const HEARTBEAT_MS = 30_000;
/** A presence row no process has vouched for in this long belongs to a process that died (three missed heartbeats). */
export const PRESENCE_STALE_MS = 90_000;

const CHANNEL_PATTERN = /^([a-z][a-z0-9.-]{0,120})\/([a-z][a-z0-9-]{0,40})\/([A-Za-z0-9_-]{1,100})$/;

/** A parsed channel name: `{app namespace}/{kind}/{id}`. */
export function parseChannel(channel: unknown): { namespace: string; kind: string; id: string } | null {
  if (typeof channel !== 'string') return null;
  const match = CHANNEL_PATTERN.exec(channel);
  return match ? { namespace: match[1], kind: match[2], id: match[3] } : null;
}

type ClientMessage = { type?: unknown; channel?: unknown; since?: unknown; ref?: unknown; data?: unknown };

/**
 * The live-update hub of one process: its sockets, their subscriptions, and the channels they
 * watch. Every note (a logged event, a typing or presence signal) of a watched channel is handled
 * in that channel's own queue, in id order: the subscribers' credentials are judged again (layers
 * 1-2, and 4-5 of the channel's app) before anything is sent, so access lost since the previous
 * note is lost now; a hole in the ids is filled from the channel's log first.
 */
export class LiveHub {
  readonly processId = randomUUID();
  private readonly connections = new Set<Connection>();
  private readonly channels = new Map<string, ChannelState>();
  private readonly kinds = new Map<string, Map<string, ChannelKind>>();
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly log: LiveLog,
    private readonly logger: Logger,
    private readonly clock: () => Date,
    private readonly sendBufferLimit = SEND_BUFFER_LIMIT,
  ) {}

  /** Sockets closed as too slow since this process started. */
  shed = 0;

  /** Declares an app's channel kinds (the apps layer calls it at boot). */
  declareChannels(namespace: string, kinds: Record<string, ChannelKind>): void {
    this.kinds.set(namespace, new Map(Object.entries(kinds)));
  }

  /** Whether the app declared this kind of channel. */
  hasKind(namespace: string, kind: string): boolean {
    return this.kinds.get(namespace)?.has(kind) === true;
  }

  /** Sockets open on this process. */
  get size(): number {
    return this.connections.size;
  }

  start(): void {
    this.heartbeat ??= setInterval(() => {
      for (const connection of this.connections) {
        if (!connection.alive) {
          connection.socket.terminate();
          continue;
        }
        connection.alive = false;
        connection.socket.ping();
      }
      this.tendPresence().catch((error) => this.logger.warn({ err: error }, 'live: tending presence failed'));
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /**
   * Vouches for this process's presence rows and sweeps the stale ones of the workspaces it
   * serves (a process that died without closing its sockets stops vouching for its rows): each
   * member left with no socket on a channel is announced offline. The heartbeat runs it; tests
   * call it after moving the clock.
   */
  async tendPresence(): Promise<void> {
    const workspaceIds = [...new Set([...this.channels.values()].map((state) => state.workspaceId))];
    const now = this.clock();
    const gone = await this.log.tendPresence(workspaceIds, this.processId, now, new Date(now.getTime() - PRESENCE_STALE_MS));
    for (const { workspaceId, channel, memberId } of gone) await this.log.signal({ w: workspaceId, c: channel, t: 'presence', m: memberId, s: 'offline' });
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    const leaving: Promise<void>[] = [];
    for (const connection of [...this.connections]) {
      this.connections.delete(connection);
      for (const subscription of [...connection.subscriptions.values()]) leaving.push(this.unsubscribe(subscription).catch(() => {}));
      connection.socket.close(1001, 'server stopping');
    }
    await Promise.allSettled([...leaving, ...[...this.channels.values()].map((state) => state.chain)]);
  }

  /** Takes an authenticated socket. */
  accept(socket: WebSocket, workspace: LiveWorkspace, credential: LiveCredential, member: LiveMember): void {
    const connection: Connection = { id: randomUUID(), socket, workspace, credential, member, subscriptions: new Map(), alive: true, typedAt: new Map(), signalledAt: new Map(), signalWaiting: new Map() };
    this.connections.add(connection);
    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('message', (raw, isBinary) => {
      if (isBinary) return this.refuse(connection, 'Binary frames are not part of the protocol');
      let message: ClientMessage;
      try {
        message = JSON.parse(raw.toString()) as ClientMessage;
      } catch {
        return this.refuse(connection, 'A message must be a JSON object');
      }
      this.handle(connection, message).catch((error) => {
        this.logger.error({ err: error }, 'live: handling a message failed');
        this.send(connection, { type: 'error', ref: refOf(message), error: 'Internal error' });
      });
    });
    socket.on('close', () => this.drop(connection));
    socket.on('error', () => this.drop(connection));
    this.send(connection, { type: 'welcome', protocol: LIVE_PROTOCOL, connection_id: connection.id, member_id: member.id, workspace_id: workspace.id });
  }

  private refuse(connection: Connection, error: string): void {
    this.send(connection, { type: 'error', error });
  }

  private async handle(connection: Connection, message: ClientMessage): Promise<void> {
    if (!message || typeof message !== 'object' || Array.isArray(message)) return this.refuse(connection, 'A message must be a JSON object');
    const ref = refOf(message);
    switch (message.type) {
      case 'ping':
        return this.send(connection, { type: 'pong', ...(ref ? { ref } : {}) });
      case 'subscribe':
        return this.subscribe(connection, message, ref);
      case 'unsubscribe': {
        const channel = typeof message.channel === 'string' ? message.channel : '';
        const subscription = connection.subscriptions.get(channel);
        if (!subscription) return this.send(connection, { type: 'error', ref, channel, status: 404, error: `Not subscribed to ${JSON.stringify(channel.slice(0, 300))}` });
        await this.unsubscribe(subscription);
        return this.send(connection, { type: 'unsubscribed', ref, channel });
      }
      case 'typing': {
        const channel = typeof message.channel === 'string' ? message.channel : '';
        if (!connection.subscriptions.has(channel)) return this.send(connection, { type: 'error', ref, channel, status: 404, error: `Not subscribed to ${JSON.stringify(channel.slice(0, 300))}` });
        const now = Date.now();
        if (now - (connection.typedAt.get(channel) ?? 0) < TYPING_INTERVAL_MS) return;
        connection.typedAt.set(channel, now);
        await this.log.signal({ w: connection.workspace.id, c: channel, t: 'typing', m: connection.member.id });
        return;
      }
      case 'signal':
        return this.relaySignal(connection, message, ref);
      default:
        return this.send(connection, { type: 'error', ref, error: `Unknown message type ${JSON.stringify(String(message.type ?? '')).slice(0, 60)}: expected subscribe, unsubscribe, typing, signal or ping` });
    }
  }

  /**
   * An ephemeral message of the app's own (a cursor): relayed to the channel's other sockets, on
   * any process, never logged. Only on kinds declared with `signals: true`; `data` is a JSON
   * object of at most SIGNAL_MAX_BYTES; one per SIGNAL_INTERVAL_MS per socket and channel goes
   * out. One sent sooner waits for the interval's end, and a later one takes its place: a burst
   * (frames read together after a pause of the network or of this process) ends on its last.
   */
  private async relaySignal(connection: Connection, message: ClientMessage, ref: string | undefined): Promise<void> {
    const channel = typeof message.channel === 'string' ? message.channel : '';
    if (!connection.subscriptions.has(channel)) return this.send(connection, { type: 'error', ref, channel, status: 404, error: `Not subscribed to ${JSON.stringify(channel.slice(0, 300))}` });
    const parsed = parseChannel(channel)!;
    if (this.kinds.get(parsed.namespace)?.get(parsed.kind)?.signals !== true) return this.send(connection, { type: 'error', ref, channel, status: 403, error: `Channels of kind ${parsed.kind} do not relay signals` });
    const data = message.data;
    if (!data || typeof data !== 'object' || Array.isArray(data)) return this.send(connection, { type: 'error', ref, channel, status: 400, error: 'data must be a JSON object' });
    if (Buffer.byteLength(JSON.stringify(data)) > SIGNAL_MAX_BYTES) return this.send(connection, { type: 'error', ref, channel, status: 400, error: `data must be at most ${SIGNAL_MAX_BYTES} bytes as JSON` });
    const waiting = connection.signalWaiting.get(channel);
    if (waiting) {
      waiting.data = data as Record<string, unknown>;
      return;
    }
    const wait = (connection.signalledAt.get(channel) ?? 0) + SIGNAL_INTERVAL_MS - Date.now();
    if (wait <= 0) return this.sendSignal(connection, channel, data as Record<string, unknown>);
    const timer = setTimeout(() => {
      const latest = connection.signalWaiting.get(channel);
      connection.signalWaiting.delete(channel);
      if (!latest || !connection.subscriptions.has(channel)) return;
      this.sendSignal(connection, channel, latest.data).catch((error) => this.logger.warn({ err: error }, 'live: relaying a signal failed'));
    }, wait);
    timer.unref();
    connection.signalWaiting.set(channel, { data: data as Record<string, unknown>, timer });
  }

  private async sendSignal(connection: Connection, channel: string, data: Record<string, unknown>): Promise<void> {
    connection.signalledAt.set(channel, Date.now());
    await this.log.signal({ w: connection.workspace.id, c: channel, t: 'signal', m: connection.member.id, k: connection.id, d: data });
  }

  private async subscribe(connection: Connection, message: ClientMessage, ref: string | undefined): Promise<void> {
    const parsed = parseChannel(message.channel);
    const channel = message.channel as string;
    if (!parsed) return this.send(connection, { type: 'error', ref, status: 400, error: 'channel must be {app}/{kind}/{id} (letters, digits, - and _)' });
    if (message.since !== undefined && (typeof message.since !== 'string' || !/^\d{1,18}$/.test(message.since))) {
      return this.send(connection, { type: 'error', ref, channel, status: 400, error: 'since must be an event id (a string of digits)' });
    }
    if (connection.subscriptions.has(channel)) return this.send(connection, { type: 'error', ref, channel, status: 409, error: `Already subscribed to ${channel}` });
    if (connection.subscriptions.size >= MAX_SUBSCRIPTIONS) return this.send(connection, { type: 'error', ref, channel, status: 429, error: `A socket follows at most ${MAX_SUBSCRIPTIONS} channels: unsubscribe from one first` });
    const kind = this.kinds.get(parsed.namespace)?.get(parsed.kind);
    if (!kind) return this.send(connection, { type: 'error', ref, channel, status: 404, error: `No channel kind ${parsed.kind} in app ${parsed.namespace}` });
    // A socket opened with an app's token follows that app's channels only.
    if (connection.credential.app !== undefined && connection.credential.app !== parsed.namespace) return this.send(connection, { type: 'error', ref, channel, status: 403, error: "You don't have access to this app" });
    const gate: ChannelGate | null = kind.platform ? null : { namespace: parsed.namespace, permission: kind.permission };
    const [verdict] = await judgeCredentials(this.sequelize, connection.workspace.id, [connection.credential], this.clock(), gate);
    if (!verdict.allowed) {
      if (verdict.layer <= 2) return this.lose(connection);
      return this.send(connection, { type: 'error', ref, channel, status: 403, error: verdict.layer === 4 ? "You don't have access to this app" : verdict.reason });
    }
    const permissions = verdict.permissions ?? PermissionSet.of(parsed.namespace, []);
    if (kind.authorize && !(await kind.authorize({ workspace: connection.workspace, member: verdict.member, permissions, id: parsed.id }))) {
      return this.send(connection, { type: 'error', ref, channel, status: 403, error: `You may not follow ${channel}` });
    }
    if (connection.subscriptions.has(channel) || !this.connections.has(connection)) return;
    const subscription: Subscription = { connection, channel, cursor: -1n };
    connection.subscriptions.set(channel, subscription);
    const state = this.stateOf(connection.workspace.id, channel, gate);
    // The replay runs in the channel's queue: notes that arrive meanwhile wait behind it.
    await this.enqueue(state, async () => {
      const last = BigInt(await this.log.lastId(state.workspaceId, channel));
      // Only the first subscriber on this process sets where the channel's notes start. Later
      // ones leave `state.last` alone: events up to `last` whose notes are still on their way are
      // owed to the sockets already here (the new one skips them by its cursor).
      if (state.last === null) state.last = last;
      const since = typeof message.since === 'string' ? BigInt(message.since) : null;
      let replay: LoggedEvent[] = [];
      let reset = false;
      if (since !== null && since < last) {
        const read = await this.log.read(state.workspaceId, channel, since.toString(), last.toString());
        replay = read.events;
        reset = !read.complete;
      }
      const now = this.clock();
      const present = await this.log.enter(state.workspaceId, channel, connection.id, connection.member.id, this.processId, now, new Date(now.getTime() - PRESENCE_STALE_MS));
      this.send(connection, { type: 'subscribed', ref, channel, last_id: last.toString(), presence: present, ...(reset ? { reset: true } : {}) });
      for (const event of replay) if (admits(event.audience, connection.member.id)) this.send(connection, eventMessage(channel, event));
      subscription.cursor = last;
      state.subscriptions.add(subscription);
    });
    await this.log.signal({ w: state.workspaceId, c: channel, t: 'presence', m: connection.member.id, s: 'online' });
  }

  private async unsubscribe(subscription: Subscription): Promise<void> {
    const { connection, channel } = subscription;
    connection.subscriptions.delete(channel);
    connection.typedAt.delete(channel);
    connection.signalledAt.delete(channel);
    clearTimeout(connection.signalWaiting.get(channel)?.timer);
    connection.signalWaiting.delete(channel);
    const key = `${connection.workspace.id}|${channel}`;
    const state = this.channels.get(key);
    state?.subscriptions.delete(subscription);
    if (state && state.subscriptions.size === 0) this.channels.delete(key);
    const gone = await this.log.leave(connection.workspace.id, channel, connection.id, connection.member.id);
    if (gone) await this.log.signal({ w: connection.workspace.id, c: channel, t: 'presence', m: connection.member.id, s: 'offline' });
  }

  private drop(connection: Connection): void {
    if (!this.connections.delete(connection)) return;
    for (const subscription of [...connection.subscriptions.values()]) {
      this.unsubscribe(subscription).catch((error) => this.logger.warn({ err: error }, 'live: leaving a channel failed'));
    }
  }

  /** The socket's credential no longer opens this workspace: it is closed, and hears nothing more. */
  private lose(connection: Connection): void {
    if (!this.connections.has(connection)) return;
    this.drop(connection);
    connection.socket.close(CLOSE_ACCESS_LOST, 'access lost');
  }

  private stateOf(workspaceId: string, channel: string, gate: ChannelGate | null): ChannelState {
    const key = `${workspaceId}|${channel}`;
    let state = this.channels.get(key);
    if (!state) {
      state = { workspaceId, channel, gate, subscriptions: new Set(), last: null, queue: [], chain: Promise.resolve() };
      this.channels.set(key, state);
    }
    return state;
  }

  private enqueue(state: ChannelState, task: () => Promise<void>): Promise<void> {
    const run = state.chain.then(task);
    state.chain = run.catch((error) => this.logger.error({ err: error, channel: state.channel }, 'live: a channel task failed'));
    return run;
  }

  /** A note from any process (NOTIFY, or this process on the embedded database). */
  receive(note: LiveNote): void {
    const state = this.channels.get(`${note.w}|${note.c}`);
    if (!state) return;
    state.queue.push(note);
    if (state.queue.length === 1) void this.enqueue(state, () => this.drain(state));
  }

  /** Handles every note queued on the channel: one access judgement covers them all. */
  private async drain(state: ChannelState): Promise<void> {
    const notes = state.queue.splice(0);
    if (notes.length === 0 || state.subscriptions.size === 0) return;
    const logged = notes.filter((note) => note.id !== undefined).sort((a, b) => (BigInt(a.id!) < BigInt(b.id!) ? -1 : 1));
    const signals = notes.filter((note) => note.id === undefined);
    let events: LoggedEvent[] = [];
    if (logged.length > 0) {
      const top = BigInt(logged[logged.length - 1].id!);
      const from = state.last ?? BigInt(logged[0].id!) - 1n;
      const fresh = logged.filter((note) => BigInt(note.id!) > from);
      const contiguous = fresh.every((note, index) => BigInt(note.id!) === from + BigInt(index + 1));
      if (fresh.length > 0 && (!contiguous || fresh.some((note) => note.big))) {
        events = (await this.log.read(state.workspaceId, state.channel, from.toString(), top.toString())).events;
      } else {
        events = fresh.map((note) => ({ id: note.id!, type: note.t, data: note.d, audience: note.a ?? null }));
      }
      if (top > from) state.last = top;
    }
    // Members the app revoked from the channel end their subscriptions first.
    const revoked = new Set(logged.flatMap((note) => note.r ?? []));
    if (revoked.size > 0) {
      for (const subscription of [...state.subscriptions]) {
        if (!revoked.has(subscription.connection.member.id)) continue;
        this.send(subscription.connection, { type: 'revoked', channel: state.channel, error: `You no longer follow ${state.channel}` });
        await this.unsubscribe(subscription);
      }
    }
    const subscriptions = [...state.subscriptions];
    if (subscriptions.length === 0) return;
    const verdicts = await judgeCredentials(
      this.sequelize,
      state.workspaceId,
      subscriptions.map((subscription) => subscription.connection.credential),
      this.clock(),
      state.gate,
    );
    // Every subscriber of the channel hears the same frame of an event: it is serialized and encoded once.
    const frames = events.map((event) => Buffer.from(JSON.stringify(eventMessage(state.channel, event))));
    for (const [index, subscription] of subscriptions.entries()) {
      const verdict = verdicts[index];
      const connection = subscription.connection;
      if (!verdict.allowed) {
        if (verdict.layer <= 2) this.lose(connection);
        else {
          this.send(connection, { type: 'revoked', channel: state.channel, error: verdict.layer === 4 ? "You don't have access to this app" : verdict.reason });
          await this.unsubscribe(subscription);
        }
        continue;
      }
      for (const [position, event] of events.entries()) {
        const id = BigInt(event.id);
        if (id <= subscription.cursor) continue;
        subscription.cursor = id;
        if (admits(event.audience, connection.member.id)) this.send(connection, frames[position]);
      }
      for (const signal of signals) {
        if (signal.m === connection.member.id && signal.t === 'typing') continue;
        if (signal.t === 'typing') this.send(connection, { type: 'typing', channel: state.channel, member_id: signal.m });
        else if (signal.t === 'signal') {
          if (signal.k !== connection.id) this.send(connection, { type: 'signal', channel: state.channel, member_id: signal.m, connection_id: signal.k, data: signal.d });
        }
        else if (signal.t === 'presence' && !(signal.m === connection.member.id && signal.s === 'online')) this.send(connection, { type: 'presence', channel: state.channel, member_id: signal.m, state: signal.s });
      }
    }
  }

  /** Sends a message, or a text frame already encoded (UTF-8 JSON). */
  private send(connection: Connection, message: Record<string, unknown> | Buffer): void {
    if (connection.socket.readyState !== 1) return;
    // Sending never waits for a socket: what it has not read stays queued here, up to the limit.
    if (connection.socket.bufferedAmount > this.sendBufferLimit) return this.tooSlow(connection);
    if (Buffer.isBuffer(message)) connection.socket.send(message, { binary: false });
    else connection.socket.send(JSON.stringify(message));
  }

  /** A socket that left more than the limit unread: it hears nothing more, and is closed. */
  private tooSlow(connection: Connection): void {
    if (!this.connections.has(connection)) return;
    this.shed++;
    this.logger.info({ connection_id: connection.id, member_id: connection.member.id, buffered_bytes: connection.socket.bufferedAmount }, 'live: a socket too slow to read its messages was closed');
    this.drop(connection);
    connection.socket.close(CLOSE_TOO_SLOW, 'too slow');
    setTimeout(() => connection.socket.terminate(), SLOW_CLOSE_GRACE_MS).unref();
  }
}

function refOf(message: ClientMessage): string | undefined {
  return typeof message?.ref === 'string' ? message.ref.slice(0, 100) : undefined;
}

function admits(audience: string[] | null, memberId: string): boolean {
  return audience === null || audience.includes(memberId);
}

function eventMessage(channel: string, event: LoggedEvent): Record<string, unknown> {
  return { type: 'event', channel, id: event.id, event: event.type, data: event.data };
}
