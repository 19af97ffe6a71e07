import pg from 'pg';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Logger } from 'pino';
import { hotRows, statement } from '../db/index.js';

/** How many events each channel keeps for resuming clients (older ones are pruned at publish). */
export const CHANNEL_LOG_SIZE = 1000;
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; larger events travel by id and are read back. */
export const NOTIFY_INLINE_LIMIT = 7000;
export const NOTIFY_CHANNEL = 'wpk_live';

/** An event an app publishes to one of its channels. */
export interface LivePublication {
  /** The full channel name (`chat/chats/{id}`). */
  channel: string;
  /** The event type (`message.sent`). */
  type: string;
  data: unknown;
  /** Member ids that may receive it (null: every admitted subscriber). */
  audience: string[] | null;
  /** Member ids whose subscriptions to the channel end now (they lost access at the app's level). */
  revoke: string[];
}

/** What the apps layer publishes through. */
export interface LivePublisher {
  /** Appends the events to their channels' logs and fans them out (call after the app's transaction committed). */
  publish(workspaceId: string, publications: readonly LivePublication[]): Promise<void>;
}

/** What travels between processes: a logged event (with `id`), or an ephemeral signal (typing, presence). */
export interface LiveNote {
  w: string;
  c: string;
  /** The event id (logged events only). */
  id?: string;
  /** Type: an app event type, or `typing` / `presence` / `signal` for ephemeral notes. */
  t: string;
  /** The data (absent when the payload was too large to travel inline: read the row). */
  d?: unknown;
  a?: string[] | null;
  /** Members revoked from the channel. */
  r?: string[];
  /** Ephemeral: the member the signal is about, and presence's state. */
  m?: string;
  /** Ephemeral `signal`: the sending socket's connection id (it does not hear its own). */
  k?: string;
  s?: 'online' | 'offline';
  /** True when `d` was left out (read the row). */
  big?: boolean;
}

/** One row of a channel's log. */
export interface LoggedEvent {
  id: string;
  type: string;
  data: unknown;
  audience: string[] | null;
}

/**
 * One publication (see LiveLog.publish): the channel's counter, the logged row, the pruning of old
 * rows every 100th event, and the NOTIFY carrying the new id. Prepared: it runs once per event.
 */
const APPEND = statement(`WITH counter AS (
   INSERT INTO platform.live_channels (workspace_id, channel, last_id) VALUES ($1, $2, 1)
   ON CONFLICT (workspace_id, channel) DO UPDATE SET last_id = platform.live_channels.last_id + 1, updated_at = now()
   RETURNING last_id
 ), logged AS (
   INSERT INTO platform.live_events (workspace_id, channel, id, type, data, audience)
   SELECT $1, $2, counter.last_id, $3, $4, $5 FROM counter
 ), pruned AS (
   DELETE FROM platform.live_events e USING counter
    WHERE e.workspace_id = $1 AND e.channel = $2 AND counter.last_id % 100 = 0 AND e.id <= counter.last_id - ${CHANNEL_LOG_SIZE}
 )
 SELECT counter.last_id, CASE WHEN $6::boolean THEN pg_notify('${NOTIFY_CHANNEL}', '{"id":"' || counter.last_id || '",' || $7) END AS notified FROM counter`);

/**
 * The channels' logs, and the way notes travel: on PostgreSQL by NOTIFY in the publishing
 * transaction (delivered to every listening process at commit, in commit order); on the embedded
 * database (one process) straight to this process's hub after the commit.
 */
export class LiveLog {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly notify: boolean,
    private readonly local: (note: LiveNote) => void,
  ) {}

  /**
   * Appends events to their channels and sends their notes: one statement a publication (the
   * channel's counter, the logged row, the pruning of old rows every 100th event, and the NOTIFY
   * carrying the new id), in one transaction when there are several. The channel row is the
   * per-channel lock: a second publisher waits for this commit, so ids follow commit order per
   * channel, and NOTIFY delivers at commit, in commit order.
   */
  async publish(workspaceId: string, publications: readonly LivePublication[]): Promise<void> {
    if (publications.length === 0) return;
    const notes: LiveNote[] = [];
    const append = async (publication: LivePublication, transaction: Transaction | null) => {
      const note: LiveNote = { w: workspaceId, c: publication.channel, t: publication.type, d: publication.data ?? null, a: publication.audience, ...(publication.revoke.length > 0 ? { r: publication.revoke } : {}) };
      // The note's text around its id (known only in the statement): `{"id":"` || id || `",...}`.
      const rest = JSON.stringify(fitted(note)).slice(1);
      const [row] = await hotRows<{ last_id: string }>(this.sequelize, APPEND, [workspaceId, publication.channel, publication.type, JSON.stringify(publication.data ?? null), publication.audience, this.notify, rest], transaction);
      notes.push({ ...note, id: String(row.last_id) });
    };
    if (publications.length === 1) await append(publications[0], null);
    else {
      await this.sequelize.transaction(async (transaction) => {
        for (const publication of publications) await append(publication, transaction);
      });
    }
    if (!this.notify) for (const note of notes) this.local(fitted(note));
  }

  /** Sends an ephemeral note (typing, presence): nothing is logged. */
  async signal(note: LiveNote): Promise<void> {
    if (this.notify) await this.sequelize.query('SELECT pg_notify($1, $2)', { bind: [NOTIFY_CHANNEL, JSON.stringify(note)], transaction: null });
    else this.local(note);
  }

  /** The channel's last event id ('0' when it has none). */
  async lastId(workspaceId: string, channel: string): Promise<string> {
    const [row] = await this.sequelize.query<{ last_id: string }>('SELECT last_id FROM platform.live_channels WHERE workspace_id = $1 AND channel = $2', {
      type: QueryTypes.SELECT,
      bind: [workspaceId, channel],
      transaction: null,
    });
    return row ? String(row.last_id) : '0';
  }

  /** Events of the channel with `after < id <= upTo`, oldest first, and whether the log still held every one of them. */
  async read(workspaceId: string, channel: string, after: string, upTo: string): Promise<{ events: LoggedEvent[]; complete: boolean }> {
    if (BigInt(upTo) <= BigInt(after)) return { events: [], complete: true };
    const rows = await this.sequelize.query<{ id: string; type: string; data: unknown; audience: string[] | null }>(
      'SELECT id, type, data, audience FROM platform.live_events WHERE workspace_id = $1 AND channel = $2 AND id > $3 AND id <= $4 ORDER BY id',
      { type: QueryTypes.SELECT, bind: [workspaceId, channel, after, upTo], transaction: null },
    );
    const events = rows.map((row) => ({ id: String(row.id), type: row.type, data: row.data, audience: row.audience }));
    const complete = events.length === Number(BigInt(upTo) - BigInt(after));
    return { events, complete };
  }

  /**
   * Adds a socket's presence row, seen at `now`; answers the members present on the channel (rows
   * seen since `freshSince`: a dead process's rows do not count).
   */
  async enter(workspaceId: string, channel: string, connectionId: string, memberId: string, processId: string, now: Date, freshSince: Date): Promise<string[]> {
    await this.sequelize.query(
      'INSERT INTO platform.live_presence (workspace_id, channel, connection_id, member_id, process_id, seen_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (workspace_id, channel, connection_id) DO NOTHING',
      { bind: [workspaceId, channel, connectionId, memberId, processId, now], transaction: null },
    );
    const rows = await this.sequelize.query<{ member_id: string }>('SELECT DISTINCT member_id FROM platform.live_presence WHERE workspace_id = $1 AND channel = $2 AND seen_at >= $3 ORDER BY member_id', {
      type: QueryTypes.SELECT,
      bind: [workspaceId, channel, freshSince],
      transaction: null,
    });
    return rows.map((row) => row.member_id);
  }

  /** Removes a socket's presence row; true when the member has no other socket on the channel. */
  async leave(workspaceId: string, channel: string, connectionId: string, memberId: string): Promise<boolean> {
    await this.sequelize.query('DELETE FROM platform.live_presence WHERE workspace_id = $1 AND channel = $2 AND connection_id = $3', { bind: [workspaceId, channel, connectionId], transaction: null });
    const [row] = await this.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM platform.live_presence WHERE workspace_id = $1 AND channel = $2 AND member_id = $3', {
      type: QueryTypes.SELECT,
      bind: [workspaceId, channel, memberId],
      transaction: null,
    });
    return row.n === 0;
  }

  /**
   * The heartbeat of one process: its presence rows in these workspaces are seen at `now`, then
   * the rows of those workspaces last seen before `staleBefore` (a process that died without
   * closing its sockets) are removed. Answers each member left with no row on a channel, to be
   * announced offline.
   */
  async tendPresence(workspaceIds: string[], processId: string, now: Date, staleBefore: Date): Promise<Array<{ workspaceId: string; channel: string; memberId: string }>> {
    if (workspaceIds.length === 0) return [];
    await this.sequelize.query('UPDATE platform.live_presence SET seen_at = $3 WHERE workspace_id = ANY($1::uuid[]) AND process_id = $2', { bind: [workspaceIds, processId, now], transaction: null });
    const removed = await this.sequelize.query<{ workspace_id: string; channel: string; member_id: string }>(
      `DELETE FROM platform.live_presence p WHERE p.workspace_id = ANY($1::uuid[]) AND p.seen_at < $2 RETURNING p.workspace_id, p.channel, p.member_id`,
      { type: QueryTypes.SELECT, bind: [workspaceIds, staleBefore], transaction: null },
    );
    const gone: Array<{ workspaceId: string; channel: string; memberId: string }> = [];
    const seen = new Set<string>();
    for (const row of removed) {
      const key = `${row.workspace_id}|${row.channel}|${row.member_id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const [left] = await this.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM platform.live_presence WHERE workspace_id = $1 AND channel = $2 AND member_id = $3', {
        type: QueryTypes.SELECT,
        bind: [row.workspace_id, row.channel, row.member_id],
        transaction: null,
      });
      if (left.n === 0) gone.push({ workspaceId: row.workspace_id, channel: row.channel, memberId: row.member_id });
    }
    return gone;
  }
}

/** The note as it can travel: the data left out when the whole would pass NOTIFY's limit. */
function fitted(note: LiveNote): LiveNote {
  // Room for an id of 19 digits and its key, which the statement adds.
  if (Buffer.byteLength(JSON.stringify(note), 'utf8') + (note.id === undefined ? 30 : 0) < NOTIFY_INLINE_LIMIT) return note;
  const { d: _data, ...rest } = note;
  return { ...rest, big: true };
}

/**
 * A dedicated connection that LISTENs for notes (PostgreSQL only). It reconnects after a lost
 * connection; notes sent meanwhile are recovered by the hub's gap check (ids are consecutive).
 */
export class NoteListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly onNote: (note: LiveNote) => void,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      if (message.channel !== NOTIFY_CHANNEL || !message.payload) return;
      try {
        this.onNote(JSON.parse(message.payload) as LiveNote);
      } catch (error) {
        this.logger.warn({ err: error }, 'live: unreadable note');
      }
    });
    client.on('error', (error) => {
      this.logger.warn({ err: error }, 'live: the LISTEN connection failed; reconnecting');
      this.reconnect();
    });
    client.on('end', () => this.reconnect());
    await client.connect();
    await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    this.client = client;
  }

  private reconnect(): void {
    if (this.stopped || this.retry) return;
    this.client = null;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().catch((error) => {
        this.logger.warn({ err: error }, 'live: reconnecting LISTEN failed');
        this.reconnect();
      });
    }, 500);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
