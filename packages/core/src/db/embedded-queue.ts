import type { PGlite } from '@electric-sql/pglite';

interface QueuedMessage {
  handlerId: number;
  /** When it was queued (performance.now()). */
  at: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: Error) => void;
}

// Frontend messages of the extended query protocol that leave the session mid-exchange until Sync.
const EXTENDED = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((letter) => letter.charCodeAt(0)));

/**
 * How the queue states its limit: the embedded database runs one statement at a time for every
 * connection, so under more load than that it falls behind, and a message that waited longer than
 * `waitMs` to reach the session is reported, at most once every `intervalMs`.
 */
export interface SaturationWatch {
  waitMs: number;
  intervalMs: number;
  report(saturation: { waitedMs: number; queued: number }): void;
}

/**
 * The message queue between client connections and the single PGlite session.
 *
 * pglite-socket's own queue hands the session to whichever connection is next after each
 * message, outside transactions. With the extended protocol (Parse, Bind, Execute, Sync: what
 * `pg` sends for every parameterised query) two connections then interleave inside one
 * exchange and one of them fails with "unnamed prepared statement does not exist". This queue
 * keeps the session with one connection from its first extended message until its Sync, and
 * for as long as it holds a transaction open.
 */
export class SessionQueue {
  private readonly queue: QueuedMessage[] = [];
  private processing = false;
  /** The connection that holds the session, or null when it is free. */
  private owner: number | null = null;
  /** When the last saturation was reported (performance.now()). */
  private reportedAt = -Infinity;

  constructor(
    private readonly db: PGlite,
    private readonly saturation?: SaturationWatch,
  ) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, at: performance.now(), message, onData, resolve, reject });
      void this.process();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    for (let index = this.queue.length - 1; index >= 0; index--) {
      if (this.queue[index].handlerId === handlerId) this.queue.splice(index, 1)[0].reject(new Error('Handler disconnected'));
    }
  }

  /** A connection went away: roll back what it left open and free the session. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    this.owner = null;
    void this.process();
  }

  /** A message that waited longer than the watch allows is reported (at most once an interval). */
  private watch(item: QueuedMessage): void {
    if (!this.saturation) return;
    const now = performance.now();
    const waitedMs = now - item.at;
    if (waitedMs < this.saturation.waitMs || now - this.reportedAt < this.saturation.intervalMs) return;
    this.reportedAt = now;
    this.saturation.report({ waitedMs: Math.round(waitedMs), queued: this.queue.length });
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const index = this.owner === null ? 0 : this.queue.findIndex((item) => item.handlerId === this.owner);
        if (index === -1) break; // the owner has more to say; the others wait
        const item = this.queue.splice(index, 1)[0];
        this.watch(item);
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (error) {
          this.owner = null;
          item.reject(error as Error);
          continue;
        }
        const midExchange = EXTENDED.has(item.message[0]);
        this.owner = midExchange || this.db.isInTransaction() ? item.handlerId : null;
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }
}
