import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PgBoss, type Job } from 'pg-boss';
import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import type { LoopScheduler } from './service.js';

/** The pg-boss queue of the billing loop: one delayed job per firing of a workspace's loop. */
export const BILLING_QUEUE = 'wpk-billing';
const QUEUE_SCHEMA = 'pgboss';

/** Accounts whose next firing has no live job (a cross-tenant discovery: docs/billing.md). */
const RECOVERY = `SELECT a.workspace_id, a.next_run_at FROM platform.billing_accounts a WHERE NOT EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = $1 AND j.state IN ('created', 'retry', 'active') AND j.data->>'w' = a.workspace_id::text AND (j.data->>'due')::timestamptz = a.next_run_at)`;

interface FiringData {
  /** workspace id */
  w: string;
  /** the firing's instant (ISO), as the runtime's clock counts */
  due: string;
}

export interface BillingWorkerOptions {
  databaseUrl: string;
  sequelize: Sequelize;
  logger: Logger;
  clock: () => Date;
  pollMs: number;
  claimSeconds: number;
  fire(workspaceId: string, due: Date): Promise<string[]>;
  /** Charges the invoices whose next attempt is due (docs/billing.md, "Collection and dunning"); returns how many were tried. */
  collect?(onError: (error: unknown, invoice: { workspace_id: string; id: string }) => void): Promise<number>;
}

/**
 * The billing loop on the durable queue (pg-boss, the queue the event bus already runs on). Each
 * firing is a job whose `startAfter` is its instant; the job is written in the same transaction as
 * the account change that scheduled it (through the request's connection), so a firing is never
 * lost nor queued for a change that rolled back. A process that dies mid-firing leaves its job
 * claimed; pg-boss hands it to another process once the claim expires (`claimSeconds`), and the
 * firing runs again from the start in a fresh transaction: the first attempt's writes died with
 * its transaction, and a firing that did commit is recognised (the account's next firing moved on),
 * so no period is billed twice.
 *
 * The clock: a job carries its instant as the runtime's clock counts it; a job whose instant has
 * passed by that clock is made available at once (a test clock moves ahead of the database's).
 */
export class BillingWorker implements LoopScheduler {
  private boss: PgBoss | null = null;
  private pool: pg.Pool | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;
  private recoveredAt = 0;

  constructor(private readonly options: BillingWorkerOptions) {}

  /** Starts pg-boss on a small pool of its own, then polls every `pollMs` (`poll: false`: only `runDue()` fires). */
  async start(poll = true): Promise<void> {
    if (this.boss) return;
    const pool = new pg.Pool({ connectionString: this.options.databaseUrl, max: 2, application_name: 'wpk-billing' });
    pool.on('error', (error) => this.options.logger.warn({ err: error }, 'billing worker connection error'));
    const boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => pool.query(text, values as unknown[]) },
      schema: QUEUE_SCHEMA,
      schedule: false,
      supervise: true,
      monitorIntervalSeconds: Math.max(1, Math.min(60, this.options.claimSeconds)),
      superviseIntervalSeconds: Math.max(1, Math.min(60, this.options.claimSeconds)),
      queueCacheIntervalSeconds: 60,
    } as ConstructorParameters<typeof PgBoss>[0]);
    boss.on('error', (error: Error) => this.options.logger.warn({ err: error }, 'billing queue error'));
    await boss.start();
    if (!(await boss.getQueue(BILLING_QUEUE))) {
      try {
        await boss.createQueue(BILLING_QUEUE, { retryLimit: 10, retryDelay: 0, expireInSeconds: this.options.claimSeconds, deleteAfterSeconds: 7 * 24 * 3600 });
      } catch (error) {
        if (!(await boss.getQueue(BILLING_QUEUE))) throw error;
      }
    } else {
      await boss.updateQueue(BILLING_QUEUE, { expireInSeconds: this.options.claimSeconds });
    }
    // Loads the queue into pg-boss's cache now, outside any transaction: a first look-up inside one
    // would query through this pool and, on the embedded database, wait for that transaction.
    await boss.getJobById(BILLING_QUEUE, randomUUID());
    this.pool = pool;
    this.boss = boss;
    this.stopped = false;
    await this.recover();
    if (poll) this.arm();
  }

  /**
   * Queues the next firing of every account that has no job for it (scheduled by a process whose
   * worker was not running, or a job lost to the queue's retention): at start and once a minute.
   */
  async recover(): Promise<number> {
    const pool = this.pool;
    if (!pool) return 0;
    this.recoveredAt = Date.now();
    const { rows } = await pool.query<{ workspace_id: string; next_run_at: Date }>(RECOVERY, [BILLING_QUEUE]);
    for (const row of rows) await this.schedule(row.workspace_id, new Date(row.next_run_at));
    return rows.length;
  }

  private arm(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.runDue()
        .catch((error) => this.options.logger.warn({ err: error }, 'billing loop pass failed'))
        .finally(() => this.arm());
    }, this.options.pollMs);
    this.timer.unref();
  }

  /**
   * Queues a firing (in the caller's transaction when there is one: the job commits with the
   * account change). Written through the caller's connection so it joins that transaction.
   */
  async schedule(workspaceId: string, due: Date): Promise<void> {
    const delayMs = due.getTime() - this.options.clock().getTime();
    const startAfter = new Date(Date.now() + Math.max(0, delayMs));
    const sequelize = this.options.sequelize;
    const db = { executeSql: async (text: string, values?: unknown[]) => ({ rows: (await sequelize.query(text, { bind: values as unknown[], raw: true }))[0] as unknown[] }) };
    // A process whose worker is not running (a runtime that was never started: a script, a test
    // that only injects) queues nothing: a worker that starts, here or in any other process,
    // queues every account's missing firing (recover()).
    if (!this.boss) return;
    await this.boss.insert(BILLING_QUEUE, [{ data: { w: workspaceId, due: due.toISOString() } satisfies FiringData, startAfter }], { db } as never);
  }

  /** One pass: makes the firings due by the runtime's clock available, runs every available one, then the charges due. Returns how many firings ran. */
  runDue(): Promise<number> {
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }

  private async pass(): Promise<number> {
    const boss = this.boss;
    const pool = this.pool;
    if (!boss || !pool) return 0;
    if (Date.now() - this.recoveredAt > 60_000) await this.recover();
    await pool.query(
      `UPDATE ${QUEUE_SCHEMA}.job SET start_after = now() WHERE name = $1 AND state = 'created' AND start_after > now() AND (data->>'due')::timestamptz <= $2`,
      [BILLING_QUEUE, this.options.clock()],
    );
    let ran = 0;
    for (;;) {
      const jobs = (await boss.fetch<FiringData>(BILLING_QUEUE, { batchSize: 20 })) as Array<Job<FiringData>>;
      if (jobs.length === 0) {
        await this.collect();
        return ran;
      }
      for (const job of jobs) {
        try {
          await this.options.fire(job.data.w, new Date(job.data.due));
          await boss.complete(BILLING_QUEUE, job.id);
          ran += 1;
        } catch (error) {
          this.options.logger.warn({ err: error, workspace_id: job.data.w }, 'billing loop firing failed; it will be retried');
          await boss.fail(BILLING_QUEUE, job.id, { message: (error as Error).message }).catch(() => {});
        }
      }
      if (this.stopped) return ran;
    }
  }

  /** The charges due after the firings (an invoice a firing issued is charged in the same pass). */
  private async collect(): Promise<number> {
    if (!this.options.collect || this.stopped) return 0;
    return this.options.collect((error, invoice) => this.options.logger.warn({ err: error, workspace_id: invoice.workspace_id, invoice_id: invoice.id }, 'invoice charge failed; it will be retried'));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => {});
    await this.boss?.stop({ graceful: false, close: false, timeout: 2000 }).catch(() => {});
    await this.pool?.end().catch(() => {});
    this.boss = null;
    this.pool = null;
  }
}
