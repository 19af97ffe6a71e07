import { createHash } from 'node:crypto';
import { Sequelize, type Transaction } from 'sequelize';

/** A statement of the request's hot path: a fixed text with `$n` parameters and a stable name. */
export interface Statement {
  /** The name it is prepared under on PostgreSQL (unique per text in the process). */
  name: string;
  text: string;
}

interface PgClient {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

interface Pool {
  getConnection(options?: { type?: string }): Promise<PgClient>;
  releaseConnection(connection: PgClient): void;
}

/**
 * The request's hot path to the database, beside Sequelize rather than through it: the
 * statement goes straight to the `pg` client of Sequelize's own pool (or of the transaction the
 * caller is in), as a named prepared statement on PostgreSQL, so each connection plans it once;
 * rows come back plain (Sequelize's type parsers still apply: they are on the connection).
 * Sequelize stays for model definitions, migrations and everything off the hot path: on this
 * path its query building, per-query Error, instance building and CLS cost more than the query
 * (docs/decisions.md, Performance).
 *
 * The embedded database gets unnamed statements: every client connection shares PGlite's one
 * session, so a name prepared by one connection would collide with the same name from another.
 */
export class FastQuery {
  private readonly pool: Pool;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly named: boolean,
  ) {
    this.pool = (sequelize as unknown as { connectionManager: Pool }).connectionManager;
  }

  /** The transaction the caller runs in: the one given, else the ambient one (AsyncLocalStorage). */
  private transactionOf(transaction: Transaction | null | undefined): Transaction | null {
    if (transaction !== undefined) return transaction;
    const cls = (Sequelize as unknown as { _cls?: { get(key: string): unknown } })._cls;
    return (cls?.get('transaction') as Transaction | undefined) ?? null;
  }

  /**
   * Runs `statement` with `values` and returns its rows. Inside a transaction (given, or ambient)
   * it runs on the transaction's connection; otherwise on a pool connection, released after.
   */
  async rows<T>(statement: Statement, values: unknown[], transaction?: Transaction | null): Promise<T[]> {
    const config = this.named ? { name: statement.name, text: statement.text, values } : { text: statement.text, values };
    const open = this.transactionOf(transaction);
    const joined = open ? (open as unknown as { connection?: PgClient }).connection : undefined;
    if (joined) return (await joined.query(config)).rows as T[];
    const connection = await this.pool.getConnection({ type: 'write' });
    try {
      return (await connection.query(config)).rows as T[];
    } finally {
      this.pool.releaseConnection(connection);
    }
  }
}

/** A hot-path statement; its name is derived from its text, so one text is one prepared statement. */
export function statement(text: string): Statement {
  return { name: `wpk_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text };
}
