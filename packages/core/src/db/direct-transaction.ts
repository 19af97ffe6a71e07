import pg from 'pg';
import { Transaction, type Sequelize } from 'sequelize';
import { nestingParent } from './cls.js';
import { FastQuery } from './fast-query.js';
import { deferBegin, letCommitTravel, takeCommittedAhead, takePendingBegin, type PgConnection } from './pending-begin.js';

interface Internals {
  id: string;
  connection: PgConnection;
  finished?: string;
  _afterCommitHooks: Array<(transaction: Transaction) => unknown>;
  options: { isolationLevel?: unknown; deferrable?: unknown; readOnly?: boolean };
  cleanup(): void;
  forceCleanup(): Promise<void>;
}

interface Pool {
  getConnection(options: { uuid: string }): Promise<PgConnection>;
}

const internals = (transaction: Transaction) => transaction as unknown as Internals;

/**
 * A Sequelize transaction whose BEGIN, COMMIT and ROLLBACK go straight to its pg connection.
 * The object is Sequelize's own Transaction on a connection of Sequelize's pool, so everything
 * else works as with `sequelize.transaction()`: queries given it (or finding it in the ambient
 * context) join it, savepoints nest in it, `afterCommit` hooks run. Only the three statements
 * skip Sequelize's query path (option cloning, a new Error per query, logging), which cost more
 * than the statements themselves on a request that writes one row
 * (docs/decisions/0025-hot-path.md). Where the runtime configures what Sequelize would add to
 * BEGIN (an isolation level, deferrable constraints), this opens the transaction through
 * Sequelize instead.
 *
 * BEGIN itself waits for the transaction's first statement and travels with it: the hot path
 * (`FastQuery`, a named statement already prepared on the connection) sends BEGIN and the
 * statement in one write and one round trip (`Carrying` in fast-query.ts); any other first
 * statement is sent once BEGIN has answered (as before); a transaction that sent nothing commits or rolls
 * back without a round trip (docs/decisions/0330-begin-with-first-statement.md). On the same
 * connections the COMMIT may travel with the transaction's last statement instead
 * (`FastQuery.rowsThenCommit`, the outbox insert that ends an app request): `commitTransaction`
 * then sends nothing (docs/decisions/0334-commit-with-last-statement.md).
 */
export async function beginTransaction(sequelize: Sequelize): Promise<Transaction> {
  // In a nested request (cls.ts, runNested): a savepoint of the caller's transaction.
  if (nestingParent()) return sequelize.transaction();
  const transaction = new Transaction(sequelize, {});
  const { options } = internals(transaction);
  if (options.isolationLevel || options.deferrable || options.readOnly) return sequelize.transaction();
  const pool = (sequelize as unknown as { connectionManager: Pool }).connectionManager;
  const { id } = internals(transaction);
  const connection = await pool.getConnection({ uuid: id });
  connection.uuid = id;
  internals(transaction).connection = connection;
  // On the embedded database (statements prepared in its one shared session) BEGIN is sent at once,
  // as before: the session is then this transaction's until it ends, so a statement it prepares is
  // not prepared by another connection meanwhile (which would fail, and abort this transaction).
  if (connection instanceof pg.Client && FastQuery.of(sequelize)?.preparesPerConnection) {
    deferBegin(connection);
    letCommitTravel(transaction);
    return transaction;
  }
  try {
    await connection.query('BEGIN');
  } catch (error) {
    // As Sequelize does: a connection in an unknown state is not given back to the pool.
    await internals(transaction).forceCleanup();
    throw error;
  }
  return transaction;
}

/**
 * Commits a transaction of `beginTransaction`, then runs its `afterCommit` hooks, only when the
 * COMMIT succeeded (Sequelize runs them either way; nothing that follows a failed commit here
 * should believe it committed).
 */
export async function commitTransaction(transaction: Transaction): Promise<void> {
  // A savepoint (a nested request's): Sequelize releases nothing and runs its hooks.
  if ((transaction as unknown as { parent?: Transaction }).parent) return transaction.commit();
  const state = internals(transaction);
  if (state.finished) throw new Error(`Transaction cannot be committed because it has been finished with state: ${state.finished}`);
  try {
    // The COMMIT already went with the last statement; or nothing was sent (no statement ran): nothing to commit.
    if (!takeCommittedAhead(transaction) && !takePendingBegin(state.connection)) await state.connection.query('COMMIT');
    state.cleanup();
  } catch (error) {
    state.finished = 'commit';
    await state.forceCleanup();
    throw error;
  }
  state.finished = 'commit';
  for (const hook of state._afterCommitHooks) await hook.call(transaction, transaction);
}

/** Rolls back a transaction of `beginTransaction`. */
export async function rollbackTransaction(transaction: Transaction): Promise<void> {
  if ((transaction as unknown as { parent?: Transaction }).parent) return transaction.rollback();
  const state = internals(transaction);
  if (state.finished) throw new Error(`Transaction cannot be rolled back because it has been finished with state: ${state.finished}`);
  // After a COMMIT that travelled with the last statement there is nothing to roll back (the
  // caller ends a request transaction right after it); ROLLBACK still ends what may be open.
  takeCommittedAhead(transaction);
  try {
    if (!takePendingBegin(state.connection)) await state.connection.query('ROLLBACK');
    state.cleanup();
  } catch (error) {
    await state.forceCleanup();
    throw error;
  } finally {
    state.finished = 'rollback';
  }
}
