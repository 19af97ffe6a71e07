import { createHash } from 'node:crypto';
import pg from 'pg';
import { ConnectionAcquireTimeoutError, QueryTypes, Sequelize, type Transaction } from 'sequelize';
import { commitMayTravelWith, markCommittedAhead, takePendingBegin } from './pending-begin.js';

/** A statement of the request's hot path: a fixed text with `$n` parameters and a stable name. */
export interface Statement {
  /** The name it is prepared under on PostgreSQL (unique per text in the process). */
  name: string;
  text: string;
}

interface PgClient {
  query(query: pg.Query): unknown;
}

/**
 * Sends one statement as a pg Query built here (text, values, callback): pg then takes it as is,
 * without copying a config object and wrapping a promise of its own for every statement.
 */
function send<T>(connection: PgClient, text: string, values: unknown[], name?: string): Promise<T[]> {
  return sendFor(connection, text, values, name, (result) => result.rows as T[]);
}

/** What a statement answered: its rows, and the count its command tag gives (rows updated or deleted). */
interface StatementResult {
  rows: unknown[];
  rowCount: number | null;
}

function sendFor<R>(connection: PgClient, text: string, values: unknown[], name: string | undefined, take: (result: StatementResult) => R): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const query = new pg.Query(text, values, (error: Error | undefined, result: StatementResult) => (error ? reject(error) : resolve(take(result))));
    // Named after construction: a name in the constructor's config would have pg copy the config.
    if (name !== undefined) (query as unknown as { name: string }).name = name;
    connection.query(query);
  });
}

/** pg's protocol writer of a connection (what a Query writes its messages to). */
interface PgProtocol {
  parse(message: { text: string }): void;
  bind(message: object): void;
  execute(message: object): void;
  sync(): void;
  parsedStatements: Record<string, string | undefined>;
}

type QueryCallback = (error: Error | undefined, result: StatementResult | StatementResult[]) => void;
const PgQuery = pg.Query as unknown as new (text: string, values: unknown[], callback: QueryCallback) => { name?: string; prepare(connection: PgProtocol): void };

/**
 * A named statement that carries its transaction's BEGIN, its COMMIT, or both, in the same write
 * and round trip. BEGIN goes first as an unnamed statement of the extended protocol (Parse, Bind,
 * Execute), then the statement's own Bind, Describe and Execute, then COMMIT the same way as
 * BEGIN, and the one Sync. The server runs them in order inside the block the messages open:
 * BEGIN makes it the transaction's start, COMMIT ends the transaction with the statement in it.
 * An error in any of them skips the rest to the Sync, as for any statement: a statement that fails
 * leaves its transaction open and failed (the caller rolls it back), never committed. pg sees one
 * query with one result per command and one ReadyForQuery. Only for a statement already prepared
 * on the connection: its Parse is then not sent, so the ParseCompletes of BEGIN and COMMIT, which
 * pg counts as the statement's, tell pg nothing it did not know.
 */
class Carrying extends PgQuery {
  constructor(
    text: string,
    values: unknown[],
    callback: QueryCallback,
    readonly carriesBegin: boolean,
    readonly carriesCommit: boolean,
  ) {
    super(text, values, callback);
  }

  override prepare(connection: PgProtocol): void {
    if (this.carriesBegin) unnamed(connection, 'BEGIN');
    if (!this.carriesCommit) return super.prepare(connection);
    // pg's Query writes the statement's Execute and the Sync in `_getRows`; COMMIT goes between them.
    const own = this as unknown as { _getRows(connection: PgProtocol, rows?: number): void };
    own._getRows = (protocol) => {
      protocol.execute({});
      unnamed(protocol, 'COMMIT');
      protocol.sync();
    };
    super.prepare(connection);
  }
}

/** Writes `text` as the unnamed statement and runs it (Parse, Bind, Execute: no Describe, no Sync). */
function unnamed(connection: PgProtocol, text: string): void {
  connection.parse({ text });
  connection.bind({});
  connection.execute({});
}

function sendCarrying<R>(connection: PgClient, statement: Statement, values: unknown[], begin: boolean, commit: boolean, take: (result: StatementResult) => R): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const query = new Carrying(statement.text, values, (error, results) => (error ? reject(error) : resolve(take(Array.isArray(results) ? results[begin ? 1 : 0]! : results))), begin, commit);
    query.name = statement.name;
    connection.query(query as unknown as pg.Query);
  });
}

/** Whether `statement` is prepared under its name on this connection (pg's own record). */
function preparedOn(connection: PgClient, statement: Statement): boolean {
  return (connection as unknown as { connection?: PgProtocol }).connection?.parsedStatements[statement.name] === statement.text;
}

interface ConnectionManager {
  getConnection(options?: { type?: string }): Promise<PgClient>;
  releaseConnection(connection: PgClient): void;
  /** sequelize-pool's Pool (or, with replication, Sequelize's read/write wrapper of two). */
  pool: { acquire(type?: string): Promise<PgClient> };
}

const registry = new WeakMap<Sequelize, FastQuery>();

/**
 * The request's hot path to the database, beside Sequelize rather than through it: the
 * statement goes straight to the `pg` client of Sequelize's own pool (or of the transaction the
 * caller is in), as a named prepared statement on PostgreSQL, so each connection plans it once;
 * rows come back plain (Sequelize's type parsers still apply: they are on the connection).
 * Sequelize stays for model definitions, migrations and everything off the hot path: on this
 * path its query building, per-query Error, instance building and CLS cost more than the query
 * (docs/decisions/0025-hot-path.md).
 *
 * The embedded database shares one session among all client connections, so a protocol-level
 * name prepared by one connection would collide with the same name from another (pg tracks names
 * per connection). There the statement is prepared once per session with SQL `PREPARE` and run
 * as `EXECUTE name('value', ...)` (EXECUTE takes no protocol parameters, so the values go as
 * escaped literals): planning is what costs most there, and it runs in this process (PGlite is
 * WebAssembly in the same thread).
 */
export class FastQuery {
  private readonly manager: ConnectionManager;
  /** Embedded: the statements PREPAREd in the one session. */
  private readonly sessionPrepared = new Set<string>();

  constructor(
    private readonly sequelize: Sequelize,
    private named: boolean,
  ) {
    this.manager = (sequelize as unknown as { connectionManager: ConnectionManager }).connectionManager;
    registry.set(sequelize, this);
  }

  /** The FastQuery of the Database that owns `sequelize` (undefined for a bare Sequelize). */
  static of(sequelize: Sequelize): FastQuery | undefined {
    return registry.get(sequelize);
  }

  /**
   * The server serves every connection from one session (PGlite, reached through its socket by
   * this process or by another one): prepare with SQL PREPARE instead of protocol-level names.
   */
  shareOneSession(): void {
    this.named = false;
  }

  /** Whether statements are prepared per connection under protocol-level names (PostgreSQL), not in one shared session. */
  get preparesPerConnection(): boolean {
    return this.named;
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
  rows<T>(statement: Statement, values: unknown[], transaction?: Transaction | null): Promise<T[]> {
    return this.on(transaction, (connection) => this.run(connection, statement, values, (result) => result.rows as T[]));
  }

  /** Runs `statement` (an UPDATE or DELETE) as `rows` does and returns how many rows it changed. */
  changed(statement: Statement, values: unknown[], transaction?: Transaction | null): Promise<number> {
    return this.on(transaction, (connection) => this.run(connection, statement, values, (result) => result.rowCount ?? 0));
  }

  /**
   * Runs `statement` as the last of the ambient transaction and returns its rows. Where the
   * transaction's COMMIT may travel with it (a transaction of `beginTransaction` on PostgreSQL,
   * not a savepoint, the statement already prepared on its connection) the COMMIT goes in the
   * same write and round trip, and `commitTransaction` then sends nothing; if the statement or the
   * COMMIT fails, this throws and the transaction is not committed (the caller rolls it back).
   * Anywhere else it runs as `rows` does and the caller's commit sends the COMMIT. Nothing may be
   * sent in the transaction after it.
   */
  rowsThenCommit<T>(statement: Statement, values: unknown[]): Promise<T[]> {
    const open = this.transactionOf(undefined);
    const connection = open ? (open as unknown as { connection?: PgClient }).connection : undefined;
    if (!this.named || !open || !connection || !commitMayTravelWith(open) || !preparedOn(connection, statement)) return this.rows<T>(statement, values);
    const begin = takePendingBegin(connection);
    return sendCarrying(connection, statement, values, begin, true, (result) => {
      markCommittedAhead(open);
      return result.rows as T[];
    });
  }

  /** Runs `work` on the transaction's connection (given, or ambient), else on a pool connection released after. */
  private async on<R>(transaction: Transaction | null | undefined, work: (connection: PgClient) => Promise<R>): Promise<R> {
    const open = this.transactionOf(transaction);
    const joined = open ? (open as unknown as { connection?: PgClient }).connection : undefined;
    if (joined) return work(joined);
    const connection = await this.acquire();
    try {
      return await work(connection);
    } finally {
      this.manager.releaseConnection(connection);
    }
  }

  /**
   * A connection of Sequelize's pool. `getConnection` wraps the pool's own acquire in two rounds
   * of pool hooks and a version check, three promises per statement on the hot path: once the
   * version is known and no pool hook is registered, this takes the pool's acquire directly,
   * with the same timeout error.
   */
  private acquire(): Promise<PgClient> {
    const sequelize = this.sequelize as unknown as { options: { databaseVersion?: unknown }; hasHook(name: string): boolean };
    if (sequelize.options.databaseVersion === 0 || sequelize.hasHook('beforePoolAcquire') || sequelize.hasHook('afterPoolAcquire')) return this.manager.getConnection({ type: 'write' });
    return this.manager.pool.acquire('write').catch((error: Error) => {
      throw error.constructor.name === 'TimeoutError' ? new ConnectionAcquireTimeoutError(error) : error; // sequelize-pool's TimeoutError sets no name
    });
  }

  private async run<R>(connection: PgClient, statement: Statement, values: unknown[], take: (result: StatementResult) => R): Promise<R> {
    if (this.named) {
      // The first statement of a transaction whose BEGIN waits (direct-transaction.ts) takes it along.
      if (preparedOn(connection, statement) && takePendingBegin(connection)) return sendCarrying(connection, statement, values, true, false, take);
      return sendFor(connection, statement.text, values, statement.name, take);
    }
    if (!this.sessionPrepared.has(statement.name)) await this.prepareInSession(connection, statement);
    const execute = `EXECUTE ${statement.name}(${values.map(literal).join(', ')})`;
    try {
      return await sendFor(connection, execute, [], undefined, take);
    } catch (error) {
      // 26000: the session lost it (DEALLOCATE ALL, a new session): prepare again, once.
      if ((error as { code?: string }).code !== '26000') throw error;
      this.sessionPrepared.delete(statement.name);
      await this.prepareInSession(connection, statement);
      return sendFor(connection, execute, [], undefined, take);
    }
  }

  private async prepareInSession(connection: PgClient, statement: Statement): Promise<void> {
    try {
      await send(connection, `PREPARE ${statement.name} AS ${statement.text}`, []);
    } catch (error) {
      // 42P05: another connection of the same session prepared it first.
      if ((error as { code?: string }).code !== '42P05') throw error;
    }
    this.sessionPrepared.add(statement.name);
  }
}

/** A value as pg would send it as a text parameter (null for NULL). */
function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  if (Array.isArray(value)) {
    const element = (item: unknown) => {
      const text = textOf(item);
      return text === null ? 'NULL' : `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    };
    return `{${value.map(element).join(',')}}`;
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A value as an SQL literal (its type comes from the prepared statement's parameter). */
function literal(value: unknown): string {
  const text = textOf(value);
  return text === null ? 'NULL' : pg.escapeLiteral(text);
}

/** A hot-path statement; its name is derived from its text, so one text is one prepared statement. */
export function statement(text: string): Statement {
  return { name: `wpk_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text };
}

/**
 * Runs a hot statement of the platform's own (the live judge, the live log, a throttle count) as
 * the request's reads run: prepared, through the FastQuery of the Database that owns `sequelize`;
 * through Sequelize as a bound query where there is none (a bare Sequelize). `transaction` as
 * FastQuery takes it: undefined is the ambient one, null none.
 */
export function hotRows<T>(sequelize: Sequelize, hot: Statement, values: unknown[], transaction?: Transaction | null): Promise<T[]> {
  const fast = FastQuery.of(sequelize);
  if (fast) return fast.rows<T>(hot, values, transaction);
  return sequelize.query<T & object>(hot.text, { type: QueryTypes.SELECT, bind: values, ...(transaction === undefined ? {} : { transaction }) });
}
