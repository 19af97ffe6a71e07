import type { Request, ResponseToolkit, ResponseObject } from '@hapi/hapi';
import type { Sequelize, Transaction } from 'sequelize';
import type { EventSink, StagedEvent } from '../events/index.js';

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
