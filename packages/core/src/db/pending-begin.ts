import pg from 'pg';

/** The part of a pg client (a connection of Sequelize's pool) the transaction code uses. */
export interface PgConnection {
  query(text: string): Promise<unknown>;
  uuid?: string;
}

/**
 * The connections whose transaction is open on our side but whose BEGIN has not been sent: it
 * goes with their first statement (see `beginTransaction`).
 */
const pendingBegin = new WeakSet<object>();

type Callback = (error: Error | null, result?: unknown) => void;
type Query = (this: unknown, ...args: unknown[]) => unknown;
/** pg's own `query`, looked up when called: whatever wraps it (an APM's instrumentation, a test's recorder) sees every statement. */
const pgQuery = (): Query => pg.Client.prototype.query as unknown as Query;

/**
 * Marks `connection`'s BEGIN as pending. Until it is taken, the first statement sent with
 * `connection.query` (Sequelize's, a savepoint's, a hot-path statement not yet prepared on this
 * connection) sends BEGIN, and it and any statement after it wait for BEGIN's answer, in the order
 * they came, as they did before BEGIN waited. If BEGIN fails they fail with its error and are
 * never sent, so nothing runs outside the transaction.
 */
export function deferBegin(connection: PgConnection): void {
  pendingBegin.add(connection);
  const own = connection as unknown as { query?: Query };
  let begun: Promise<unknown> | null = null;
  own.query = function queryAfterBegin(...args: unknown[]): unknown {
    if (!begun) {
      pendingBegin.delete(connection); // sent now: no statement may carry it any more
      begun = pgQuery().call(connection, 'BEGIN') as Promise<unknown>;
      const restore = () => {
        if (own.query === queryAfterBegin) delete own.query; // pg's own again (Client.prototype.query)
      };
      begun.then(restore, restore);
    }
    const send = () => pgQuery().apply(connection, args);
    const [first] = args;
    const last = args[args.length - 1];
    // pg's three forms: a Query object (its callback inside), a callback last, or a promise.
    if (first && typeof (first as { submit?: unknown }).submit === 'function') {
      const query = first as { callback?: Callback; handleError?: (error: Error, connection: unknown) => void };
      begun.then(send, (error: Error) => (query.callback ? query.callback(error) : query.handleError?.(error, connection)));
      return first;
    }
    if (typeof last === 'function') {
      begun.then(send, (error: Error) => (last as Callback)(error));
      return undefined;
    }
    return begun.then(send);
  };
}

/**
 * Takes `connection`'s pending BEGIN, if it has one and nothing has sent it yet: the caller now
 * owes the server the BEGIN (the fused hot path sends it with its statement) or, ending a
 * transaction in which nothing was sent, nothing at all. Returns whether there was one.
 */
export function takePendingBegin(connection: object): boolean {
  if (!pendingBegin.delete(connection)) return false;
  delete (connection as { query?: unknown }).query; // pg's own again (Client.prototype.query)
  return true;
}

/**
 * Transactions of `beginTransaction` whose connection sends named statements (PostgreSQL): their
 * COMMIT may travel with their last statement (`FastQuery.rowsThenCommit`). A savepoint, a
 * transaction Sequelize manages, or one on the embedded database is never here.
 */
const commitMayTravel = new WeakSet<object>();
/** Transactions whose COMMIT went with their last statement and succeeded: nothing is left to send. */
const committedAhead = new WeakSet<object>();

/** Lets `transaction`'s COMMIT travel with its last statement (see `commitMayTravel`). */
export function letCommitTravel(transaction: object): void {
  commitMayTravel.add(transaction);
}

/** Whether `transaction`'s COMMIT may travel with a statement now (once at most). */
export function commitMayTravelWith(transaction: object): boolean {
  return commitMayTravel.has(transaction);
}

/** Records that `transaction`'s COMMIT went with its last statement and succeeded. */
export function markCommittedAhead(transaction: object): void {
  commitMayTravel.delete(transaction);
  committedAhead.add(transaction);
}

/**
 * Ends `transaction`'s records here (on its commit or rollback). Returns whether its COMMIT
 * already went with its last statement.
 */
export function takeCommittedAhead(transaction: object): boolean {
  commitMayTravel.delete(transaction);
  return committedAhead.delete(transaction);
}
