import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';

/** The first pass, after start-up (the data a fresh install or a test run wrote by then). */
const FIRST_AFTER_MS = 60_000;
/** Then one pass per interval. */
const EVERY_MS = 10 * 60_000;

/**
 * The planner statistics of the embedded database. PostgreSQL's autovacuum analyzes a table soon
 * after its rows change; the embedded database (PGlite, one process) runs no autovacuum, so without
 * this its planner would guess forever, and the guess goes badly once a workspace has many rows
 * (the credential look-up scanning every key of a workspace instead of using its index: 100 ms
 * instead of 1 ms with a hundred keys). `ANALYZE` samples each table (a bounded cost); it runs a
 * minute after start and every ten minutes.
 */
export class EmbeddedStatistics {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.timer) return;
    const tick = (delay: number) => {
      this.timer = setTimeout(() => {
        this.run()
          .catch((error) => this.logger.warn({ err: error }, 'embedded database: ANALYZE failed'))
          .finally(() => {
            if (this.timer) tick(EVERY_MS);
          });
      }, delay);
      this.timer.unref();
    };
    tick(FIRST_AFTER_MS);
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  /** One pass now: every table's statistics gathered afresh. */
  async run(): Promise<void> {
    this.running ??= this.sequelize
      .query('ANALYZE', { transaction: null })
      .then(() => undefined)
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
