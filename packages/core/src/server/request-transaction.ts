import type { Request, ResponseToolkit, ResponseObject } from '@hapi/hapi';
import { Sequelize, type Transaction } from 'sequelize';
import { beginTransaction, commitTransaction, rollbackTransaction } from '../db/index.js';
import type { EventSink, StagedEvent } from '../events/sink.js';

/** The unit of work of one request: its transaction and the events it staged. */
export interface RequestWork {
  transaction: Transaction;
  staged: StagedEvent[];
  /** Stages an event; it is written only if the request answers 2xx. */
  stage(event: StagedEvent): void;
}

class RollbackAnswer extends Error {
  constructor(readonly answer: unknown) {
    super('non-2xx answer');
  }
}

function statusOf(value: unknown): number {
  if (value && typeof value === 'object' && 'statusCode' in value) return Number((value as ResponseObject).statusCode);
  return 200;
}

/**
 * Runs `work` in one database transaction together with the events it stages: they are
 * written to the outbox inside the transaction (for `workspaceOf(result)`), and the broker is
 * woken once it has committed — only when there was something to write. A throw rolls back
 * the work and its events alike.
 */
export async function runUnitOfWork<T>(
  sequelize: Sequelize,
  sink: EventSink,
  workspaceOf: (result: T) => string | null,
  work: (work: RequestWork) => Promise<T>,
): Promise<T> {
  let wrote = false;
  const result = await sequelize.transaction(async (transaction) => {
    const unit: RequestWork = { transaction, staged: [], stage: (event) => unit.staged.push(event) };
    const value = await work(unit);
    if (unit.staged.length > 0) {
      await sink.write(workspaceOf(value), unit.staged);
      wrote = true;
    }
    return value;
  });
  if (wrote) sink.afterCommit();
  return result;
}

/**
 * Runs a handler in one database transaction. A 2xx answer commits the handler's writes together
 * with the events it staged (written to the outbox by the sink); any other answer, or a throw,
 * rolls everything back and no event leaves. Queries inside join the transaction on their own
 * (AsyncLocalStorage), so nothing is half-written.
 */
export async function runInRequestTransaction(
  sequelize: Sequelize,
  sink: EventSink,
  request: Request,
  h: ResponseToolkit,
  handler: (work: RequestWork) => Promise<unknown>,
): Promise<unknown> {
  try {
    const result = await runUnitOfWork(sequelize, sink, () => request.app.workspace?.id ?? null, async (work) => {
      const answer = await handler(work);
      const status = statusOf(answer);
      if (status < 200 || status >= 300) throw new RollbackAnswer(answer);
      return answer;
    });
    return result ?? h.response().code(200);
  } catch (error) {
    if (error instanceof RollbackAnswer) return error.answer;
    throw error;
  }
}

/** How `ctx.db` runs its statements within a unit of work (see LazyWork); absent: as they come. */
export interface WorkGate {
  read<T>(fn: () => Promise<T>): Promise<T>;
  write<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * Runs statements one after another. A transaction is one connection, and a connection runs one
 * statement at a time: pg queues a second one itself, but warns that it will stop doing so (pg 9).
 * An app's handler may well read in parallel (`Promise.all` over its rows); inside a transaction
 * those reads take turns here instead. Each `fn` is one statement and never waits on this queue
 * itself, so the queue cannot wait on its own tail.
 */
export class StatementQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const turn = this.tail.then(fn);
    this.tail = turn.catch(() => undefined);
    return turn;
  }
}

/** A gate for a unit of work that is one transaction from the start (an event's handler): its statements take turns. */
export function transactionGate(): WorkGate {
  const queue = new StatementQueue();
  return { read: (fn) => queue.run(fn), write: (fn) => queue.run(fn) };
}

interface ClsNamespace {
  run<T>(fn: () => T): T;
  set(key: string, value: unknown): void;
}

const cls = () => (Sequelize as unknown as { _cls?: ClsNamespace })._cls;

/**
 * The unit of work of an app request whose transaction opens only when needed: at its first
 * write (`ctx.db` create, upsert, update, destroy), at the first staged event or search change
 * it must write, or at once in strict mode. A request that only reads never opens one: under READ
 * COMMITTED each statement reads its own snapshot anyway, so a transaction around reads adds two
 * round trips (and, on the embedded database, holds its one session) for nothing.
 */
export class LazyWork implements WorkGate {
  private open: Transaction | null = null;
  private opening: Promise<Transaction> | null = null;
  /** Reads in flight outside the transaction; it opens only once they are done. */
  private outside = 0;
  private drained: Array<() => void> = [];
  /** Statements inside the transaction, one at a time. */
  private readonly inside = new StatementQueue();
  readonly staged: StagedEvent[] = [];

  constructor(private readonly sequelize: Sequelize) {}

  /** The transaction, once one was opened (null before the first write). */
  get transaction(): Transaction | null {
    return this.open;
  }

  stage(event: StagedEvent): void {
    this.staged.push(event);
  }

  /**
   * Runs a read: in the transaction when one is open or opening (one statement at a time), else
   * outside it, where parallel reads take connections of their own. The transaction
   * never opens while a read outside it is in flight, so no statement of the request can queue
   * behind its own transaction (the embedded database runs one session for all connections).
   */
  async read<T>(fn: () => Promise<T>): Promise<T> {
    if (this.open) return this.inside.run(fn);
    if (this.opening) {
      await this.opening;
      return this.inside.run(fn);
    }
    this.outside++;
    try {
      return await fn();
    } finally {
      if (--this.outside === 0) for (const resolve of this.drained.splice(0)) resolve();
    }
  }

  /** Runs a write: opens the transaction first (once); the write joins it. */
  async write<T>(fn: () => Promise<T>): Promise<T> {
    await this.begin();
    return this.inside.run(fn);
  }

  /** Opens the transaction (once) and makes every later query of this request join it. */
  begin(): Promise<Transaction> {
    if (this.open) return Promise.resolve(this.open);
    this.opening ??= (async () => {
      while (this.outside > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
      const transaction = await beginTransaction(this.sequelize);
      this.open = transaction;
      cls()?.set('transaction', transaction);
      return transaction;
    })();
    return this.opening;
  }

  /** Ends the transaction, if one was opened: commit or roll back. */
  async end(commit: boolean): Promise<void> {
    const transaction = this.open ?? (this.opening ? await this.opening : null);
    this.open = null;
    this.opening = null;
    if (!transaction) return;
    cls()?.set('transaction', undefined);
    if (commit) await commitTransaction(transaction);
    else await rollbackTransaction(transaction);
  }
}

/**
 * Runs an app handler as a LazyWork: a 2xx answer commits what it wrote together with the
 * events it staged (written to the outbox in the same transaction); any other answer, or a
 * throw, rolls everything back and no event leaves. `eager` opens the transaction at once (strict
 * mode's role switch needs it).
 */
export async function runLazyRequestWork(
  sequelize: Sequelize,
  sink: EventSink,
  request: Request,
  h: ResponseToolkit,
  eager: boolean,
  handler: (work: LazyWork) => Promise<unknown>,
): Promise<unknown> {
  const work = new LazyWork(sequelize);
  const run = async (): Promise<unknown> => {
    let wrote = false;
    let answer: unknown;
    try {
      if (eager) await work.begin();
      answer = await handler(work);
      const status = statusOf(answer);
      if (status < 200 || status >= 300) {
        await work.end(false);
        return answer;
      }
      if (work.staged.length > 0) {
        await work.begin();
        // The last statements of the transaction: the outbox insert may carry the COMMIT.
        await sink.write(request.app.workspace?.id ?? null, work.staged, true);
        wrote = true;
      }
      await work.end(true);
    } catch (error) {
      await work.end(false).catch(() => {});
      throw error;
    }
    if (wrote) sink.afterCommit();
    return answer;
  };
  // A fresh context, so that the transaction `begin` opens is this request's alone.
  const namespace = cls();
  const answer = await (namespace ? namespace.run(run) : run());
  return answer ?? h.response().code(200);
}
