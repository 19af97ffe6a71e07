import { ConflictError, ForbiddenError, InvalidError, NotFoundError, Op } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Half, LeaveRequest, LeaveType, RequestStatus, WorkerCopy } from '../models/index.js';
import { STANDARD_WEEK, daysBetween, durationOf, halfDays, units, type CalendarOn, type WorkingCalendar } from './days.js';
import { append, assertCovers, balanceOf, lockBalance, today } from './ledger.js';
import { requestMachine } from './machine.js';

/** The key of HR: every worker's requests, balances and ledger, the second approval. */
export const HR_KEY = 'leaves.requests.manage';

/** What `POST /leaves/requests` takes. */
export interface RequestInput {
  type_id: string;
  worker_id?: string;
  from_date: string;
  from_half?: Half;
  to_date?: string;
  to_half?: Half;
  hours?: number;
  note?: string;
  status?: 'draft' | 'submitted';
}

/**
 * The working calendar requests are counted on: the one the app's setting names, else the oldest
 * calendar kept from Settings, else Monday to Friday; with its holidays.
 */
export async function workingCalendar(ctx: AnyCtx): Promise<WorkingCalendar> {
  const named = (ctx.settings as { calendar_id?: string }).calendar_id;
  const calendar = (named ? await ctx.db.calendars.findById(named) : null) ?? (await ctx.db.calendars.findOne({ order: [['created_at', 'ASC'], ['id', 'ASC']] }));
  return calendar ? withHolidays(ctx, calendar) : STANDARD_WEEK;
}

/** A kept calendar with its holidays. */
async function withHolidays(ctx: AnyCtx, calendar: { id: string; working_days: number[]; hours_per_day: number }): Promise<WorkingCalendar> {
  const holidays = await ctx.db.holidays.findAll({ where: { calendar_id: calendar.id } });
  return { working_days: calendar.working_days, hours_per_day: calendar.hours_per_day, holidays: new Set(holidays.map((holiday) => holiday.date)) };
}

/**
 * The calendar each day of a worker's span is counted on: that of the worker's contract covering
 * the day when it names a calendar Leaves knows; otherwise (no contract, no calendar named, one not
 * kept) the workspace's calendar.
 */
export async function calendarsOf(ctx: AnyCtx, workerId: string, span: { from_date: string; to_date: string }): Promise<CalendarOn> {
  const fallback = await workingCalendar(ctx);
  const contracts = await ctx.db.contracts.findAll({
    where: { worker_id: workerId, deleted: false, starts_on: { [Op.lte]: span.to_date }, [Op.or]: [{ ends_on: null }, { ends_on: { [Op.gte]: span.from_date } }] },
    order: [['starts_on', 'ASC']],
  });
  const calendars = new Map<string, WorkingCalendar>();
  for (const contract of contracts) {
    if (!contract.calendar_id || calendars.has(contract.calendar_id)) continue;
    const kept = await ctx.db.calendars.findById(contract.calendar_id);
    if (kept) calendars.set(contract.calendar_id, await withHolidays(ctx, kept));
  }
  return (day) => {
    const contract = contracts.find((row) => row.starts_on <= day && (row.ends_on === null || row.ends_on >= day));
    return (contract?.calendar_id && calendars.get(contract.calendar_id)) || fallback;
  };
}

/** The worker the caller is (the copy linked to their member), or null. */
export function workerOfCaller(ctx: Ctx): Promise<WorkerCopy | null> {
  return ctx.db.workers.findOne({ where: { member_id: ctx.member.id } });
}

/** Whether `workerId` is on approved leave covering `day`. */
async function awayOn(ctx: AnyCtx, workerId: string, day: string): Promise<boolean> {
  return (await ctx.db.requests.count({ where: { worker_id: workerId, status: 'approved', from_date: { [Op.lte]: day }, to_date: { [Op.gte]: day } } })) > 0;
}

/** Who approves the worker's requests: their manager, or while the manager is away, the manager's manager (their delegate). */
export async function approverOf(ctx: AnyCtx, worker: WorkerCopy): Promise<string | null> {
  if (!worker.manager_id) return null;
  if (!(await awayOn(ctx, worker.manager_id, today(ctx)))) return worker.manager_id;
  const manager = await ctx.db.workers.findById(worker.manager_id);
  return manager?.manager_id && manager.manager_id !== worker.id ? manager.manager_id : worker.manager_id;
}

/** A request as answered. */
export function presentRequest(request: LeaveRequest, names: { worker?: string; type?: string } = {}) {
  return {
    id: request.id,
    worker_id: request.worker_id,
    worker_name: names.worker ?? null,
    type_id: request.type_id,
    type_name: names.type ?? null,
    from_date: request.from_date,
    from_half: request.from_half,
    to_date: request.to_date,
    to_half: request.to_half,
    hours: request.hours,
    duration: units(request.duration),
    status: request.status,
    awaiting: request.status !== 'submitted' ? null : request.manager_approved_by ? ('hr' as const) : ('manager' as const),
    note: request.note,
    reason: request.reason,
    approver_id: request.approver_id,
    decided_by: request.decided_by,
    created_at: request.created_at,
    updated_at: request.updated_at,
  };
}

/** Requests with their worker's and type's names. */
export async function presentRequests(ctx: AnyCtx, rows: LeaveRequest[]) {
  const workers = new Map((await ctx.db.workers.findAll({ where: { id: [...new Set(rows.map((row) => row.worker_id))] } })).map((worker) => [worker.id, worker.name]));
  const types = new Map((await ctx.db.leaveTypes.findAll({})).map((type) => [type.id, type.name]));
  return rows.map((row) => presentRequest(row, { worker: workers.get(row.worker_id), type: types.get(row.type_id) }));
}

/** What the request's event carries. */
function eventPayload(request: LeaveRequest, type: LeaveType, by: string | null) {
  return {
    request_id: request.id, worker_id: request.worker_id, type_id: type.id, type_name: type.name, unit: type.unit,
    from_date: request.from_date, from_half: request.from_half, to_date: request.to_date, to_half: request.to_half, duration: units(request.duration),
    status: request.status, ...(request.approver_id ? { approver_id: request.approver_id } : {}), ...(request.reason ? { reason: request.reason } : {}), ...(by ? { by } : {}),
  };
}

/** Whether the caller may act for other workers: HR, or the approver (the manager, their delegate) of this worker. */
async function actsFor(ctx: Ctx, worker: WorkerCopy, me: WorkerCopy | null): Promise<boolean> {
  if (ctx.permissions.has(HR_KEY)) return true;
  if (!me) return false;
  return worker.manager_id === me.id || (await approverOf(ctx, worker)) === me.id;
}

/**
 * Holds every half day of the request's span under the unique key of `request_slots`: two live
 * requests of a worker cannot cover the same half day, also when submitted at the same instant
 * (the database refuses the second insert; no lock decides it). 409 naming the clash.
 */
async function holdSlots(ctx: AnyCtx, request: LeaveRequest): Promise<void> {
  const wanted = halfDays(request);
  const taken = await ctx.db.slots.findAll({ where: { worker_id: request.worker_id, day: { [Op.between]: [request.from_date, request.to_date] }, request_id: { [Op.ne]: request.id } }, order: [['day', 'ASC'], ['half', 'ASC']] });
  const clash = taken.find((held) => wanted.some((slot) => slot.day === held.day && slot.half === held.half));
  if (clash) throw new ConflictError(`The ${clash.half === 'am' ? 'morning' : 'afternoon'} of ${clash.day} is already taken by request ${clash.request_id}`, { field: 'from_date' });
  try {
    for (const slot of wanted) await ctx.db.slots.create({ worker_id: request.worker_id, day: slot.day, half: slot.half, request_id: request.id });
  } catch (error) {
    if ((error as Error).name === 'SequelizeUniqueConstraintError') throw new ConflictError(`Another request of worker ${request.worker_id} covers part of ${request.from_date} to ${request.to_date}`, { field: 'from_date' });
    throw error;
  }
}

/** Refuses a span the type cannot take; answers its duration (hundredths). */
async function measure(ctx: AnyCtx, type: LeaveType, workerId: string, span: { from_date: string; from_half: Half; to_date: string; to_half: Half; hours: number | null }): Promise<number> {
  if (span.to_date < span.from_date) throw new InvalidError('to_date must not be before from_date', { field: 'to_date' });
  if (span.from_date === span.to_date && span.from_half === 'pm' && span.to_half === 'am') throw new InvalidError('A request on one day cannot start in the afternoon and end in the morning', { field: 'to_half' });
  if (daysBetween(span.from_date, span.to_date) > 366) throw new InvalidError('A request spans at most 366 days', { field: 'to_date' });
  if (type.unit === 'day' && (span.from_half !== 'am' || span.to_half !== 'pm')) throw new InvalidError(`${type.name} is taken in whole days: from_half must be am and to_half pm`, { field: 'from_half' });
  if (type.unit === 'hour') {
    if (span.hours === null) throw new InvalidError(`hours is required: ${type.name} is taken in hours`, { field: 'hours' });
    if (span.from_date !== span.to_date) throw new InvalidError(`A request of ${type.name} (hours) is on one day: to_date must equal from_date`, { field: 'to_date' });
  } else if (span.hours !== null) throw new InvalidError(`hours applies to a type taken in hours; ${type.name} is taken in ${type.unit === 'day' ? 'days' : 'half days'}`, { field: 'hours' });
  const calendarOn = await calendarsOf(ctx, workerId, span);
  const day = calendarOn(span.from_date);
  if (type.unit === 'hour' && span.hours! > day.hours_per_day) throw new InvalidError(`hours must be at most the working day's ${day.hours_per_day}`, { field: 'hours' });
  const duration = durationOf(type.unit, span, calendarOn, type.holidays_excluded);
  if (duration === 0) throw new InvalidError(`${span.from_date} to ${span.to_date} covers no working time (weekends and public holidays count 0): the duration would be 0`, { field: 'from_date' });
  return duration;
}

/** The submitted requests of the worker and type, but `exceptId`, as hundredths. */
async function pending(ctx: AnyCtx, workerId: string, typeId: string, exceptId?: string): Promise<number> {
  const rows = await ctx.db.requests.findAll({ where: { worker_id: workerId, type_id: typeId, status: 'submitted', ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}) } });
  return rows.reduce((sum, row) => sum + row.duration, 0);
}

/** Submits: the balance must cover it with what is already pending, its half days are held, an approver named. */
async function submit(ctx: AnyCtx, request: LeaveRequest, type: LeaveType, worker: WorkerCopy): Promise<LeaveRequest> {
  await lockBalance(ctx, worker.id, type.id);
  const available = (await balanceOf(ctx, worker.id, type.id)) - (await pending(ctx, worker.id, type.id, request.id));
  assertCovers(type, available, request.duration, `This request`);
  await holdSlots(ctx, request);
  await ctx.db.requests.update({ status: 'submitted', approver_id: await approverOf(ctx, worker) }, { where: { id: request.id } });
  return (await ctx.db.requests.findById(request.id))!;
}

/** Files a request (submitted unless `status: draft`), for the caller's own worker or (HR, a manager) for another. */
export async function createRequest(ctx: Ctx, input: RequestInput): Promise<LeaveRequest> {
  const me = await workerOfCaller(ctx);
  let worker: WorkerCopy | null;
  if (input.worker_id && input.worker_id !== me?.id) {
    worker = await ctx.db.workers.findById(input.worker_id);
    if (!worker) throw new InvalidError(`worker_id ${input.worker_id} is not a worker known to Leaves`, { field: 'worker_id' });
    if (!(await actsFor(ctx, worker, me))) throw new ForbiddenError(`Only HR (${HR_KEY}) or their manager files a request for worker ${worker.id}`);
  } else {
    worker = me;
    if (!worker) throw new InvalidError('You are not linked to a worker: give worker_id', { field: 'worker_id' });
  }
  if (worker.status === 'terminated') throw new ConflictError(`Worker ${worker.id} is terminated`);
  const type = await ctx.db.leaveTypes.findById(input.type_id);
  if (!type) throw new InvalidError(`type_id ${input.type_id} is not a leave type of this workspace`, { field: 'type_id' });
  const span = { from_date: input.from_date, from_half: input.from_half ?? 'am', to_date: input.to_date ?? input.from_date, to_half: input.to_half ?? 'pm', hours: input.hours ?? null };
  const duration = await measure(ctx, type, worker.id, span);
  const draft = await ctx.db.requests.create({ worker_id: worker.id, type_id: type.id, ...span, duration, status: 'draft', note: input.note?.trim() ?? '', reason: null, approver_id: null, manager_approved_by: null, decided_by: null, created_by: ctx.member.id });
  if ((input.status ?? 'submitted') === 'draft') return draft;
  const submitted = await submit(ctx, draft, type, worker);
  ctx.events.stage('core.leaves.request.submitted', eventPayload(submitted, type, ctx.member.mrn));
  return submitted;
}

/** The request of the workspace the caller may see (their own, one they approve, any for HR); 404 otherwise. */
export async function requireRequest(ctx: Ctx, requestId: string, lock?: 'update'): Promise<{ request: LeaveRequest; worker: WorkerCopy; me: WorkerCopy | null }> {
  const request = await ctx.db.requests.findById(requestId, lock ? { lock } : {});
  const worker = request ? await ctx.db.workers.findById(request.worker_id) : null;
  const me = await workerOfCaller(ctx);
  if (!request || !worker || (worker.id !== me?.id && request.approver_id !== me?.id && !(await actsFor(ctx, worker, me)))) throw new NotFoundError(`Request ${requestId} not found`);
  return { request, worker, me };
}

/** The workers whose requests the caller sees: null for every worker (HR), else themselves and those they approve or manage. */
export async function visibleWorkers(ctx: Ctx): Promise<string[] | null> {
  if (ctx.permissions.has(HR_KEY)) return null;
  const me = await workerOfCaller(ctx);
  if (!me) return [];
  const reports = await ctx.db.workers.findAll({ where: { manager_id: me.id } });
  const approving = await ctx.db.requests.findAll({ where: { approver_id: me.id } });
  return [...new Set([me.id, ...reports.map((worker) => worker.id), ...approving.map((row) => row.worker_id)])];
}

/** Requests the caller sees, newest span first, filtered. */
export async function listRequests(ctx: Ctx, filters: { worker_id?: string; status?: RequestStatus; approver_id?: string; from?: string; to?: string }) {
  const visible = await visibleWorkers(ctx);
  const where: Record<string, unknown> = {};
  if (filters.worker_id) {
    if (visible && !visible.includes(filters.worker_id)) return { rows: [], count: 0 };
    where.worker_id = filters.worker_id;
  } else if (visible) where.worker_id = visible;
  if (filters.status) where.status = filters.status;
  if (filters.approver_id) where.approver_id = filters.approver_id;
  if (filters.from) where.to_date = { [Op.gte]: filters.from };
  if (filters.to) where.from_date = { [Op.lte]: filters.to };
  const { rows, count } = await ctx.db.requests.findAndCountAll({ where, order: [['from_date', 'DESC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
  return { rows, count };
}

/**
 * Deletes a draft: the worker's own, or one the caller drafted for them. A draft holds no half
 * day and no ledger entry and was never announced, so nothing else is undone and no event is
 * emitted. Any other status is a 409 naming it (a submitted request is withdrawn, an approved
 * one cancelled: they stay on record).
 */
export async function deleteDraft(ctx: Ctx, requestId: string): Promise<{ id: string; deleted: true }> {
  const { request, worker, me } = await requireRequest(ctx, requestId, 'update');
  if (worker.id !== me?.id && request.created_by !== ctx.member.id) throw new ForbiddenError(`Request ${request.id} is worker ${worker.id}'s draft: only they or who drafted it deletes it`);
  if (request.status !== 'draft') throw new ConflictError(`Request ${request.id} is ${request.status}: only a draft is deleted (${request.status === 'submitted' ? 'withdraw it' : request.status === 'approved' ? 'cancel it' : 'it stays on record'})`);
  await ctx.db.requests.destroy({ where: { id: request.id } });
  return { id: request.id, deleted: true };
}

/** Frees the half days a request held. */
const release = (ctx: AnyCtx, requestId: string) => ctx.db.slots.destroy({ where: { request_id: requestId } });

/**
 * Moves a request (`requestMachine`): submit (its worker), approve or refuse (the approver, or HR;
 * a refusal needs a reason; a manager-then-HR type needs both, the second by HR), withdraw (its
 * worker), cancel (its worker while it has not started; the approver or HR at any time). An
 * approval debits the ledger; a cancellation credits it back. Emits the move's event.
 */
export async function moveRequest(ctx: Ctx, requestId: string, input: { status: RequestStatus; reason?: string }): Promise<LeaveRequest> {
  const { request, worker, me } = await requireRequest(ctx, requestId, 'update');
  const move = requestMachine.moveTo(request.status, input.status);
  const type = (await ctx.db.leaveTypes.findById(request.type_id))!;
  const own = me?.id === worker.id;
  const hr = ctx.permissions.has(HR_KEY);
  const approver = !own && (hr || (me !== null && (request.approver_id === me.id || worker.manager_id === me.id)));
  const reason = input.reason?.trim() || null;
  const by = ctx.member.mrn;
  if (move.move === 'submit') {
    if (!own && !hr) throw new ForbiddenError('Only the worker or HR submits a request');
    const submitted = await submit(ctx, request, type, worker);
    ctx.events.stage('core.leaves.request.submitted', eventPayload(submitted, type, by));
    return submitted;
  }
  if (move.move === 'withdraw') {
    if (!own && !hr) throw new ForbiddenError('Only the worker or HR withdraws a request');
    await release(ctx, request.id);
  } else if (move.move === 'approve') {
    if (!approver) throw new ForbiddenError(own ? 'You cannot approve your own request' : `Only the approver of worker ${worker.id} or HR (${HR_KEY}) approves this request`);
    if (type.approval === 'manager_then_hr' && !request.manager_approved_by) {
      await ctx.db.requests.update({ manager_approved_by: ctx.member.id }, { where: { id: request.id } });
      if (!hr) return (await ctx.db.requests.findById(request.id))!;
    } else if (type.approval === 'manager_then_hr' && !hr) throw new ForbiddenError(`The manager approved it already; HR (${HR_KEY}) approves it next`);
    await lockBalance(ctx, worker.id, type.id);
    assertCovers(type, await balanceOf(ctx, worker.id, type.id), request.duration, 'This request');
    if (request.duration > 0) await append(ctx, { worker_id: worker.id, type_id: type.id, kind: 'request', amount: -request.duration, occurred_on: request.from_date, request_id: request.id, dedupe_key: `request:${request.id}` });
  } else if (move.move === 'refuse') {
    if (!approver) throw new ForbiddenError(own ? 'You cannot refuse your own request: withdraw it' : `Only the approver of worker ${worker.id} or HR (${HR_KEY}) refuses this request`);
    if (!reason) throw new InvalidError('reason is required to refuse a request', { field: 'reason' });
    await release(ctx, request.id);
  } else if (move.move === 'cancel') {
    const started = request.from_date <= today(ctx);
    if (!approver && !(own && !started)) throw new ForbiddenError(own ? `Request ${request.id} has started (${request.from_date}): only the approver or HR cancels it` : 'Only the worker, the approver or HR cancels a request');
    await release(ctx, request.id);
    await lockBalance(ctx, worker.id, type.id);
    if (request.duration > 0) await append(ctx, { worker_id: worker.id, type_id: type.id, kind: 'cancellation', amount: request.duration, occurred_on: today(ctx), request_id: request.id, dedupe_key: `cancel:${request.id}` });
  }
  await ctx.db.requests.update({ status: move.to, ...(reason ? { reason } : {}), ...(move.move === 'approve' || move.move === 'refuse' ? { decided_by: ctx.member.id } : {}) }, { where: { id: request.id } });
  const moved = (await ctx.db.requests.findById(request.id))!;
  ctx.events.stage(move.event as 'core.leaves.request.approved', eventPayload(moved, type, by));
  return moved;
}

/** A worker's manager changed: their pending requests move to the new approver. */
export async function reassignPending(ctx: AnyCtx, workerId: string): Promise<void> {
  const worker = await ctx.db.workers.findById(workerId);
  if (!worker) return;
  await ctx.db.requests.update({ approver_id: await approverOf(ctx, worker) }, { where: { worker_id: worker.id, status: 'submitted' } });
}

/**
 * A worker was terminated: their approved requests that have not started are cancelled (credited
 * back, `request.cancelled` each) and their pending ones withdrawn. Once per request.
 */
export async function cancelFuture(ctx: AnyCtx, workerId: string): Promise<{ cancelled: number; withdrawn: number }> {
  const done = { cancelled: 0, withdrawn: 0 };
  const day = today(ctx);
  const rows = await ctx.db.requests.findAll({ where: { worker_id: workerId, status: ['approved', 'submitted'], from_date: { [Op.gt]: day } }, order: [['from_date', 'ASC']], lock: 'update' });
  for (const request of rows) {
    const type = (await ctx.db.leaveTypes.findById(request.type_id))!;
    const status = request.status === 'approved' ? 'cancelled' : 'withdrawn';
    await release(ctx, request.id);
    if (status === 'cancelled' && request.duration > 0) await append(ctx, { worker_id: workerId, type_id: type.id, kind: 'cancellation', amount: request.duration, occurred_on: day, request_id: request.id, dedupe_key: `cancel:${request.id}` });
    await ctx.db.requests.update({ status, reason: 'The worker was terminated' }, { where: { id: request.id } });
    const moved = (await ctx.db.requests.findById(request.id))!;
    ctx.events.stage(status === 'cancelled' ? 'core.leaves.request.cancelled' : 'core.leaves.request.withdrawn', eventPayload(moved, type, null));
    done[status] += 1;
  }
  return done;
}
