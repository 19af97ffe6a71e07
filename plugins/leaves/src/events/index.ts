import { formatMrn, type SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { accrue, carryOver, expire, grant } from '../services/allocations.js';
import { dropCalendar, dropHoliday, dropWorker, keepCalendar, keepContract, keepDepartment, keepHoliday, keepWorker, type ContractPayload, type WorkerPayload } from '../services/copies.js';
import { cancelFuture, reassignPending } from '../services/requests.js';

/** Another app's payload (validated by the platform against its app.json schema), as this app reads it. */
const read = <T>(event: { payload: object }): T => event.payload as unknown as T;
type Ids = { worker_id: string; department_id: string; calendar_id: string; holiday_id: string };

/** `worker.hired`: the copy, and each type's default allocation (once: a repeated delivery finds the copy's revision). */
const onHired = subscription('core.workers.worker.hired', async (event, ctx) => {
  const { before, applied } = await keepWorker(ctx, read<WorkerPayload>(event));
  if (!applied || before) return;
  const types = await ctx.db.leaveTypes.findAll({ order: [['name', 'ASC']] });
  for (const type of types.filter((one) => one.default_allocation > 0)) {
    await grant(ctx, { worker_id: read<Ids>(event).worker_id, type_id: type.id, amount: type.default_allocation / 100, note: 'Default allocation of a new hire' }, null, null);
  }
});

/** Any other change of a worker, or its announcement after an install: the copy follows (by revision). */
const onWorkerChanged = (action: 'core.workers.worker.updated' | 'core.workers.worker.department_changed' | 'core.workers.worker.announced') => subscription(action, async (event, ctx) => void (await keepWorker(ctx, read<WorkerPayload>(event))));

/** `manager_changed`: the copy, and their pending requests move to the new approver. */
const onManagerChanged = subscription('core.workers.worker.manager_changed', async (event, ctx) => {
  await keepWorker(ctx, read<WorkerPayload>(event));
  await reassignPending(ctx, read<Ids>(event).worker_id);
});

/**
 * `terminated`: the copy, and their requests that have not started are cancelled (approved) or
 * withdrawn (pending); then `time_off.cleared` says so (Workers ticks the offboarding item waiting
 * for it). Once: a repeated delivery finds the copy at this revision and does nothing; one that
 * arrives after a later change of a worker still terminated (a higher revision) still clears.
 */
const onTerminated = subscription('core.workers.worker.terminated', async (event, ctx) => {
  const payload = read<WorkerPayload>(event);
  const { before, applied } = await keepWorker(ctx, payload);
  const overtaken = !applied && before !== null && before.revision > payload.revision && before.status === 'terminated';
  if (!applied && !overtaken) return;
  const workerId = read<Ids>(event).worker_id;
  const { cancelled, withdrawn } = await cancelFuture(ctx, workerId);
  ctx.events.stage('core.leaves.time_off.cleared', { worker_id: workerId, worker_mrn: formatMrn('workers', 'worker', workerId), cancelled, withdrawn });
});

const onContract = (action: 'core.workers.contract.created' | 'core.workers.contract.updated' | 'core.workers.contract.deleted' | 'core.workers.contract.announced') =>
  subscription(action, (event, ctx) => keepContract(ctx, read<ContractPayload>(event), action === 'core.workers.contract.deleted'));

const onDepartment = (action: 'core.workers.department.created' | 'core.workers.department.updated' | 'core.workers.department.moved' | 'core.workers.department.announced') => subscription(action, (event, ctx) => keepDepartment(ctx, read(event)));

export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.workers.worker.hired': onHired,
  'core.workers.worker.updated': onWorkerChanged('core.workers.worker.updated'),
  'core.workers.worker.department_changed': onWorkerChanged('core.workers.worker.department_changed'),
  'core.workers.worker.manager_changed': onManagerChanged,
  'core.workers.worker.terminated': onTerminated,
  'core.workers.worker.deleted': subscription('core.workers.worker.deleted', (event, ctx) => dropWorker(ctx, read<Ids>(event).worker_id)),
  'core.workers.contract.created': onContract('core.workers.contract.created'),
  'core.workers.contract.updated': onContract('core.workers.contract.updated'),
  'core.workers.contract.deleted': onContract('core.workers.contract.deleted'),
  'core.workers.department.created': onDepartment('core.workers.department.created'),
  'core.workers.department.updated': onDepartment('core.workers.department.updated'),
  'core.workers.department.moved': onDepartment('core.workers.department.moved'),
  'core.workers.department.deleted': subscription('core.workers.department.deleted', async (event, ctx) => void (await ctx.db.departments.destroy({ where: { id: read<Ids>(event).department_id } }))),
  // Announced after an install (records made before the app was installed): kept like a change, no default allocation.
  'core.workers.worker.announced': onWorkerChanged('core.workers.worker.announced'),
  'core.workers.contract.announced': onContract('core.workers.contract.announced'),
  'core.workers.department.announced': onDepartment('core.workers.department.announced'),
  'core.settings.calendar.created': subscription('core.settings.calendar.created', (event, ctx) => keepCalendar(ctx, read(event))),
  'core.settings.calendar.updated': subscription('core.settings.calendar.updated', (event, ctx) => keepCalendar(ctx, read(event))),
  'core.settings.calendar.deleted': subscription('core.settings.calendar.deleted', (event, ctx) => dropCalendar(ctx, read<Ids>(event).calendar_id)),
  'core.settings.holiday.created': subscription('core.settings.holiday.created', (event, ctx) => keepHoliday(ctx, read(event))),
  'core.settings.holiday.deleted': subscription('core.settings.holiday.deleted', (event, ctx) => dropHoliday(ctx, read<Ids>(event).holiday_id)),
  'core.leaves.accrual.scheduled': subscription('core.leaves.accrual.scheduled', (event, ctx) => accrue(ctx, event.payload.allocation_id)),
  'core.leaves.expiry.scheduled': subscription('core.leaves.expiry.scheduled', (event, ctx) => expire(ctx, event.payload.allocation_id)),
  'core.leaves.carry_over.scheduled': subscription('core.leaves.carry_over.scheduled', (event, ctx) => carryOver(ctx, event.payload.worker_id, event.payload.type_id, event.payload.year)),
};
