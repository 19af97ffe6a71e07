import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { PgBoss, type Job, type JobInsert } from 'pg-boss';
import type { Logger } from 'pino';
import type { Queryable } from './catalog-store.js';

/** The pg-boss queue every delivery attempt goes through. */
export const DELIVERY_QUEUE = 'wpk-event-deliveries';
/** pg-boss's schema. */
export const QUEUE_SCHEMA = 'pgboss';

/** What one queued delivery attempt carries. */
export interface DeliveryJobData {
  /** delivery id */
  d: string;
  /** event id */
  e: string;
  /** workspace id (the rows are addressed by workspace and id); absent on jobs queued before it was added */
  w?: string;
  /** attempt number this job makes (plus the job's own retryCount after a crash) */
  a: number;
}

export type DeliveryJob = Job<DeliveryJobData>;

export interface QueueOptions {
  pool: pg.Pool;
  logger: Logger;
  /** Seconds a claimed attempt may stay active before another process takes it over (crash recovery). */
  expireInSeconds: number;
  /** How often pg-boss looks for expired attempts. */
  monitorIntervalSeconds: number;
  /** How many times an attempt is taken over after a crash before pg-boss gives up on it. */
  crashRetries: number;
  /** Run pg-boss maintenance (expiry of crashed claims); false for a short-lived enqueue-only use. */
  supervise?: boolean;
}

/** pg-boss reads and writes through this: the broker's pool, or one client inside a transaction. */
function adapter(target: Queryable) {
  return { executeSql: (text: string, values?: unknown[]) => target.query(text, values as unknown[]) };
}

/**
 * The delivery queue on pg-boss. The broker owns the connections (pg-boss gets an adapter over the
 * broker's pool) so queue writes can join the broker's own transactions: fan-out and settling
 * commit together with the delivery log.
 */
export class DeliveryQueue {
  private constructor(private readonly boss: PgBoss) {}

  static async start(options: QueueOptions): Promise<DeliveryQueue> {
    const boss = new PgBoss({
      db: adapter(options.pool),
      schema: QUEUE_SCHEMA,
      schedule: false,
      supervise: options.supervise ?? true,
      monitorIntervalSeconds: options.monitorIntervalSeconds,
      superviseIntervalSeconds: options.monitorIntervalSeconds,
      queueCacheIntervalSeconds: 60,
    } as ConstructorParameters<typeof PgBoss>[0]);
    boss.on('error', (error: Error) => options.logger.warn({ err: error }, 'event queue error'));
    boss.on('warning', (warning: unknown) => options.logger.debug({ warning }, 'event queue warning'));
    await boss.start();
    if (!(await boss.getQueue(DELIVERY_QUEUE))) {
      try {
        await boss.createQueue(DELIVERY_QUEUE, {
          retryLimit: options.crashRetries,
          retryDelay: 0,
          expireInSeconds: options.expireInSeconds,
          deleteAfterSeconds: 24 * 3600,
        });
      } catch (error) {
        // Another process created it at the same time.
        if (!(await boss.getQueue(DELIVERY_QUEUE))) throw error;
      }
    } else {
      await boss.updateQueue(DELIVERY_QUEUE, { retryLimit: options.crashRetries, expireInSeconds: options.expireInSeconds });
    }
    // Loads the queue into pg-boss's cache now, outside any transaction: a first look-up inside
    // one would query through the pool and, on the embedded database, wait for that transaction.
    await boss.getJobById(DELIVERY_QUEUE, randomUUID());
    return new DeliveryQueue(boss);
  }

  /** Queues attempts inside the caller's transaction. */
  async insert(client: Queryable, jobs: Array<{ data: DeliveryJobData; startAfter?: Date }>): Promise<void> {
    if (jobs.length === 0) return;
    const rows: JobInsert<DeliveryJobData>[] = jobs.map((job) => ({ data: job.data, ...(job.startAfter ? { startAfter: job.startAfter } : {}) }));
    await this.boss.insert(DELIVERY_QUEUE, rows, { db: adapter(client) });
  }

  /** Claims up to `batchSize` due attempts (SKIP LOCKED: each goes to one process only). */
  async fetch(batchSize: number): Promise<DeliveryJob[]> {
    return (await this.boss.fetch<DeliveryJobData>(DELIVERY_QUEUE, { batchSize })) as DeliveryJob[];
  }

  /** Marks claimed attempts done, inside the caller's transaction. */
  async complete(client: Queryable, jobs: DeliveryJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.boss.complete(
      DELIVERY_QUEUE,
      jobs.map((job) => ({ id: job.id, retryCount: job.retryCount })),
      undefined,
      { db: adapter(client) },
    );
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, close: false, timeout: 2000 });
  }
}
