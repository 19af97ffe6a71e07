import { QueryTypes, Sequelize, type Model, type ModelStatic } from 'sequelize';
import type { Logger } from 'pino';
import { installTransactionContext, nestTransactions } from './cls.js';
import { EmbeddedPostgres } from './embedded.js';
import { FastQuery } from './fast-query.js';
import { useFastTimestamps } from './timestamps.js';

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir?: string;
  inMemory?: boolean;
  logger?: Logger;
  /** Connections in Sequelize's pool. */
  poolMax?: number;
  /**
   * The embedded database's limit: a statement that waited this long (ms) for its one session
   * is logged as a warning, at most once a minute (default 1,000; docs/self-hosting.md).
   */
  embeddedWaitWarnMs?: number;
}

/** How often the embedded database's saturation warning may repeat. */
const SATURATION_INTERVAL_MS = 60_000;

/** The runtime's database: Sequelize on PostgreSQL, real or embedded. */
export class Database {
  private constructor(
    readonly sequelize: Sequelize,
    /** The URL other clients of the same database (the job queue) connect with. */
    readonly url: string,
    private readonly embedded?: EmbeddedPostgres,
  ) {
    // Named prepared statements on PostgreSQL; unnamed on PGlite, whose one session all connections share.
    this.fast = new FastQuery(sequelize, embedded === undefined);
  }

  /** The request's hot path: statements straight to the pool's pg clients (db/fast-query.ts). */
  readonly fast: FastQuery;

  /** True when this process runs the embedded database. */
  get isEmbedded(): boolean {
    return this.embedded !== undefined;
  }

  static async open(options: DatabaseOptions): Promise<Database> {
    installTransactionContext();
    let embedded: EmbeddedPostgres | undefined;
    let url = options.databaseUrl;
    if (!url) {
      const logger = options.logger;
      embedded = await EmbeddedPostgres.start({
        dataDir: options.inMemory ? undefined : options.dataDir,
        saturation: logger && {
          waitMs: options.embeddedWaitWarnMs ?? 1000,
          intervalMs: SATURATION_INTERVAL_MS,
          report: ({ waitedMs, queued }) =>
            logger.warn(
              { waited_ms: waitedMs, queued },
              `the embedded database is at its limit: a statement waited ${waitedMs} ms for its one session (${queued} more queued); it runs one statement at a time, so under this load requests slow down. Run on PostgreSQL (DATABASE_URL) for more (docs/self-hosting.md)`,
            ),
        },
      });
      url = embedded.url;
    }
    const sequelize = new Sequelize(url, {
      dialect: 'postgres',
      logging: options.logger ? (sql: string) => options.logger!.trace({ sql }, 'sql') : false,
      pool: { max: options.poolMax ?? (embedded ? 4 : 10), min: 0, idle: 10_000, acquire: 30_000 },
      define: { underscored: true, timestamps: true },
      // No JIT compilation in the runtime's sessions: its statements are short, and a planner
      // estimate far above the truth (a search word held by a few records, estimated at
      // thousands) would have each one compiled, 10-15 ms, before a run of a few milliseconds.
      // A SET after connecting rather than a startup option, which connection poolers refuse.
      hooks: { afterConnect: (connection: unknown) => (connection as { query(sql: string): Promise<unknown> }).query('SET jit = off') as Promise<never> },
    });
    addWorkspaceToInstanceWrites(sequelize);
    nestTransactions(sequelize);
    useFastTimestamps(sequelize);
    const database = new Database(sequelize, url, embedded);
    try {
      await sequelize.authenticate();
      // Another process's embedded database, reached through its socket, is one session too.
      const [{ version }] = await sequelize.query<{ version: string }>('SELECT version() AS version', { type: QueryTypes.SELECT, transaction: null as never });
      if (/PGlite/i.test(version)) database.fast.shareOneSession();
    } catch (error) {
      await database.close();
      throw new Error(`Cannot reach the database at ${redactUrl(url)}: ${(error as Error).message}`, { cause: error });
    }
    return database;
  }

  /** True when a trivial query answers within `timeoutMs`. */
  async ping(timeoutMs = 2000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const probe = this.sequelize
      .query('SELECT 1 AS ok', { type: QueryTypes.SELECT, transaction: null })
      .then(() => true, () => false);
    try {
      return await Promise.race([probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs a read query with named `:replacements` and returns its rows (in the ambient transaction, if any). */
  async select<T extends object = Record<string, unknown>>(sql: string, replacements: Record<string, unknown> = {}): Promise<T[]> {
    return this.sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements });
  }

  async close(): Promise<void> {
    try {
      await this.sequelize.close();
    } finally {
      await this.embedded?.stop();
    }
  }
}

/** Hides the password of a database URL for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable database URL)';
  }
}

/**
 * An instance's own writes (`save()`, `destroy()`, `reload()`, `increment()`) address its row by
 * the primary key alone; for a tenant model (one with a `workspace_id` attribute) this adds the
 * instance's workspace, so they address `(workspace_id, id)`: on a database distributed by
 * workspace each goes to one shard. Applies to every model defined on this Sequelize (core's and
 * the apps'), through the `afterDefine` hook.
 */
function addWorkspaceToInstanceWrites(sequelize: Sequelize): void {
  sequelize.addHook('afterDefine', (defined) => {
    const model = defined as unknown as ModelStatic<Model>;
    const attributes = model.getAttributes() as Record<string, { field?: string }>;
    const attribute = Object.keys(attributes).find((name) => (attributes[name].field ?? name) === 'workspace_id');
    if (!attribute || model.primaryKeyAttributes.includes(attribute)) return;
    const prototype = model.prototype as unknown as { where(checkVersion?: boolean): Record<string, unknown> | undefined; get(key: string, options: { raw: true }): unknown };
    const base = prototype.where;
    prototype.where = function (this: typeof prototype, checkVersion?: boolean) {
      const where = base.call(this, checkVersion);
      const workspaceId = this.get(attribute, { raw: true });
      return where && workspaceId !== null && workspaceId !== undefined ? { workspace_id: workspaceId, ...where } : where;
    };
  });
}
