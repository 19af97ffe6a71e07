import { ForbiddenError, InvalidError } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { WorkerCopy } from '../models/index.js';
import { units } from './days.js';
import { HR_KEY, visibleWorkers, workerOfCaller } from './requests.js';

/** The worker a balance or ledger read is about: `worker_id` (HR, or the worker's manager) or the caller's own. */
export async function subjectOf(ctx: Ctx, workerId: string | undefined): Promise<WorkerCopy> {
  if (!workerId) {
    const me = await workerOfCaller(ctx);
    if (!me) throw new InvalidError('You are not linked to a worker: give worker_id', { field: 'worker_id' });
    return me;
  }
  const worker = await ctx.db.workers.findById(workerId);
  if (!worker) throw new InvalidError(`worker_id ${workerId} is not a worker known to Leaves`, { field: 'worker_id' });
  const visible = await visibleWorkers(ctx);
  if (visible && !visible.includes(worker.id)) throw new ForbiddenError(`Only the worker, their manager or HR (${HR_KEY}) sees the balances of worker ${worker.id}`);
  return worker;
}

/** Per type: the balance (the ledger's sum), what submitted requests hold, and what is left to ask. */
export async function balancesOf(ctx: Ctx, worker: WorkerCopy) {
  const types = await ctx.db.leaveTypes.findAll({ order: [['name', 'ASC'], ['id', 'ASC']] });
  const entries = await ctx.db.ledger.findAll({ where: { worker_id: worker.id } });
  const submitted = await ctx.db.requests.findAll({ where: { worker_id: worker.id, status: 'submitted' } });
  return types.map((type) => {
    const balance = entries.filter((entry) => entry.type_id === type.id).reduce((sum, entry) => sum + entry.amount, 0);
    const pending = submitted.filter((row) => row.type_id === type.id).reduce((sum, row) => sum + row.duration, 0);
    return { worker_id: worker.id, type_id: type.id, type_name: type.name, unit: type.unit, needs_allocation: type.needs_allocation, balance: units(balance), pending: units(pending), available: units(balance - pending) };
  });
}
