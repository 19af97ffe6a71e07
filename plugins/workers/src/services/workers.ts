import { ConflictError, ForbiddenError, InvalidError, likePattern, Op } from '@wpk/sdk';
import { resource, type WorkersBaseContext, type WorkersContext } from '../kit.js';
import type { EmploymentType, HistoryRow, Worker, WorkerStatus } from '../models/index.js';

/** A worker row as read (with its workspace). */
type StoredWorker = Worker & { workspace_id: string };
import { confirm, openChecklists } from './checklist-runs.js';
import { locationIdOf, locationMrn, resolveLocation } from './locations.js';
import { workerMachine } from './machine.js';
import { PRIVATE_FIELDS, workerDocument, workerFields } from './present.js';

/** Who did it, for an event: the caller's MRN, absent when the platform did (a delivery). */
export const by = (ctx: WorkersBaseContext & { member?: { mrn: string } | null }) => ctx.member?.mrn ?? null;

/** Workers of the workspace: reads, the search index and the events of every write. */
export const workers = resource({
  model: 'workers',
  label: 'Worker',
  order: [['name', 'ASC'], ['id', 'ASC']],
  searchColumns: ['name', 'work_email', 'title'],
  search: { type: 'worker', document: workerDocument },
  events: {
    created: (worker, ctx) => ['core.workers.worker.hired', { ...workerFields(worker), application_id: worker.application_id, by: by(ctx) }],
    updated: (worker, changed, ctx) => ['core.workers.worker.updated', { ...workerFields(worker), changed_fields: changed.filter((field) => field !== 'revision' && field !== 'former_member_id' && field !== 'location_name'), by: by(ctx) }],
    deleted: (worker, ctx) => ['core.workers.worker.deleted', { ...workerFields(worker), revision: worker.revision + 1, by: by(ctx) }],
  },
});

/** The worker of the workspace; 404 otherwise (another workspace's id answers the same). */
export function requireWorker(ctx: WorkersBaseContext, workerId: string, lock?: 'update') {
  return workers.require(ctx, workerId, lock ? { lock } : {});
}

/** A condition matching a work e-mail case-insensitively and literally (no wildcard in it counts). */
export const emailIs = (email: string): Record<symbol, string> => ({ [Op.iLike]: likePattern(email, 'exact') });

/** Today by the platform's clock, as `YYYY-MM-DD` (UTC). */
export const today = (ctx: WorkersBaseContext): string => ctx.now().toISOString().slice(0, 10);

/** What a create or an update may set; `null` clears an optional field. */
export interface WorkerInput {
  name?: string;
  work_email?: string;
  title?: string;
  department_id?: string | null;
  manager_id?: string | null;
  location_mrn?: string | null;
  start_date?: string | null;
  employment_type?: EmploymentType;
  member_id?: string | null;
  birth_date?: string | null;
  personal_email?: string | null;
  personal_phone?: string | null;
  salary_band?: string | null;
  /** For the title, department and manager given: the day they take effect (default today; past or future). */
  effective_on?: string;
}

export interface WorkerFilters {
  q?: string;
  department_id?: string;
  manager_id?: string;
  status?: WorkerStatus;
  location_mrn?: string;
}

/** One page of the workspace's workers by name, then id. */
export function listWorkers(ctx: WorkersContext, filters: WorkerFilters) {
  const where: Record<string, unknown> = {};
  if (filters.department_id) where.department_id = filters.department_id;
  if (filters.manager_id) where.manager_id = filters.manager_id;
  if (filters.status) where.status = filters.status;
  if (filters.location_mrn) {
    const id = locationIdOf(filters.location_mrn);
    where.location_mrn = id ? locationMrn(id) : filters.location_mrn;
  }
  return workers.list(ctx, { q: filters.q, where });
}

/** Refuses private fields in an input from a caller without `workers.private_fields.read`. */
function assertMaySetPrivate(ctx: WorkersContext, input: WorkerInput): void {
  const given = PRIVATE_FIELDS.filter((field) => input[field] !== undefined);
  if (given.length && !ctx.permissions.has('workers.private_fields.read')) throw new ForbiddenError(`Missing permission: workers.private_fields.read (to set ${given.join(', ')})`);
}

/**
 * Refuses a work e-mail another worker of the workspace has (case-insensitive). Takes a lock on
 * the address first, so two requests naming it at once take turns.
 */
async function assertEmailFree(ctx: WorkersBaseContext, email: string, exceptId: string | null): Promise<void> {
  await ctx.lock(`email:${email.toLowerCase()}`);
  const clash = await ctx.db.workers.findOne({ where: { work_email: emailIs(email), ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}) } });
  if (clash) throw new ConflictError(`Worker ${clash.id} (${clash.name}) already has the work e-mail ${clash.work_email}`, { field: 'work_email' });
}

/** Refuses a member another worker is linked to. */
async function assertMemberFree(ctx: WorkersBaseContext, memberId: string, exceptId: string | null): Promise<void> {
  const clash = await ctx.db.workers.findOne({ where: { member_id: memberId, ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}) } });
  if (clash) throw new ConflictError(`Member ${memberId} is already linked to worker ${clash.id} (${clash.name})`, { field: 'member_id' });
}

/** A department of the workspace named by a field; 400 naming the field otherwise. */
export async function assertDepartment(ctx: WorkersBaseContext, departmentId: string, field: string): Promise<void> {
  const found = await ctx.db.departments.findById(departmentId);
  if (!found) throw new InvalidError(`${field} ${departmentId} is not a department of this workspace`, { field });
}

/**
 * Refuses `managerId` as the manager of `workerId` when it is the worker or one of the worker's
 * reports (direct or not): that would close a loop in the org chart. Callers hold the `managers`
 * lock, so concurrent manager changes cannot together make a loop either.
 */
async function assertNoManagerCycle(ctx: WorkersBaseContext, workerId: string | null, managerId: string): Promise<void> {
  const manager = await ctx.db.workers.findById(managerId);
  if (!manager) throw new InvalidError(`manager_id ${managerId} is not a worker of this workspace`, { field: 'manager_id' });
  if (!workerId) return;
  if (managerId === workerId) throw new ConflictError(`Worker ${workerId} cannot be their own manager`, { field: 'manager_id' });
  const below = await ctx.db.workers.descendants({ from: [workerId], parent: 'manager_id' });
  if (below.some((row) => row.id === managerId)) throw new ConflictError(`Making ${manager.name} (${managerId}) the manager of worker ${workerId} would make a cycle: ${manager.name} reports to worker ${workerId}`, { field: 'manager_id' });
}

/** The member whose sign-in e-mail is `email`, if one is active in the workspace. */
async function memberByEmail(ctx: WorkersBaseContext, email: string): Promise<string | null> {
  const { rows } = await ctx.members.list({ q: email, limit: 20 });
  return rows.find((member) => member.email.toLowerCase() === email.toLowerCase())?.id ?? null;
}

/**
 * Adds a worker (status onboarding; the settings' employment type unless given). Its title,
 * department and manager open its history, effective on its start date (or today, when the
 * start is later or unknown). Linked to the member with the same e-mail unless `member_id` says.
 * Emits `worker.hired`.
 */
export async function createWorker(ctx: WorkersBaseContext & { permissions?: WorkersContext['permissions'] }, input: WorkerInput & { name: string; work_email: string }, origin: { application_id?: string } = {}): Promise<Worker> {
  if ('permissions' in ctx && ctx.permissions) assertMaySetPrivate(ctx as WorkersContext, input);
  if (input.effective_on !== undefined) throw new InvalidError('effective_on applies to a change of an existing worker; a new worker starts on start_date', { field: 'effective_on' });
  const email = input.work_email.trim();
  await assertEmailFree(ctx, email, null);
  if (input.department_id) await assertDepartment(ctx, input.department_id, 'department_id');
  const location = await resolveLocation(ctx, input.location_mrn ?? null);
  if (input.manager_id) {
    await ctx.lock('managers');
    await assertNoManagerCycle(ctx, null, input.manager_id);
  }
  const memberId = input.member_id === undefined ? await memberByEmail(ctx, email) : input.member_id;
  if (memberId) await assertMemberFree(ctx, memberId, null);
  const worker = await workers.create(ctx, {
    name: input.name.trim(),
    work_email: email,
    title: input.title?.trim() ?? '',
    department_id: input.department_id ?? null,
    manager_id: input.manager_id ?? null,
    ...location,
    start_date: input.start_date ?? null,
    employment_type: input.employment_type ?? ctx.settings.default_employment_type,
    member_id: memberId,
    status: workerMachine.initial,
    birth_date: input.birth_date ?? null,
    personal_email: input.personal_email?.trim() || null,
    personal_phone: input.personal_phone?.trim() || null,
    salary_band: input.salary_band?.trim() || null,
    application_id: origin.application_id ?? null,
    revision: 1,
  });
  const opens = input.start_date && input.start_date < today(ctx) ? input.start_date : today(ctx);
  await ctx.db.workerHistory.create({ worker_id: worker.id, effective_on: opens, title: worker.title, department_id: worker.department_id, manager_id: worker.manager_id, recorded_by: 'member' in ctx && ctx.member ? (ctx.member as { id: string }).id : null });
  await openChecklists(ctx, worker, 'onboarding');
  return worker;
}

/** The worker's history rows, oldest first. */
export function historyOf(ctx: WorkersBaseContext, workerId: string): Promise<HistoryRow[]> {
  return ctx.db.workerHistory.findAll({ where: { worker_id: workerId }, order: [['effective_on', 'ASC']] });
}

/** The row in effect on `day`: the latest effective on or before it (null before the first). */
export function rowOn(history: HistoryRow[], day: string): HistoryRow | null {
  let found: HistoryRow | null = null;
  for (const row of history) if (row.effective_on <= day) found = row;
  return found;
}

/**
 * Brings the worker's current title, department and manager to those of the history row in
 * effect today (with the other `changes` of the same request), bumping the revision once.
 * Emits `worker.updated` with what changed, and `manager_changed` / `department_changed` when
 * those did. Nothing changed: nothing written, nothing emitted.
 */
export async function applyCurrent(ctx: WorkersBaseContext, worker: StoredWorker, changes: Partial<Worker> = {}): Promise<Worker> {
  const current = rowOn(await historyOf(ctx, worker.id), today(ctx));
  const dated = current ? { title: current.title, department_id: current.department_id, manager_id: current.manager_id } : {};
  const { row, changed } = await workers.patch(ctx, worker, { ...changes, ...dated }, { touch: (before) => ({ revision: before.revision + 1 }) });
  if (changed.includes('manager_id')) ctx.events.stage('core.workers.worker.manager_changed', { ...workerFields(row), from_manager_id: worker.manager_id, by: by(ctx) });
  if (changed.includes('department_id')) ctx.events.stage('core.workers.worker.department_changed', { ...workerFields(row), from_department_id: worker.department_id, by: by(ctx) });
  if (changed.includes('member_id') && row.member_id) await confirm(ctx, row.id, 'member_linked', 'member linked');
  return row;
}

/**
 * Changes the given fields of a worker (`null` clears an optional one). A new title, department
 * or manager is recorded in the history effective on `effective_on` (default today; past or
 * future): the row of that day takes the values in effect then with the change. The worker's
 * current values follow the row in effect today; a future row takes effect on its day (a delayed
 * `worker.change_due`).
 */
export async function updateWorker(ctx: WorkersContext, workerId: string, input: WorkerInput): Promise<Worker> {
  assertMaySetPrivate(ctx, input);
  const worker = await requireWorker(ctx, workerId, 'update');
  const datedGiven = input.title !== undefined || input.department_id !== undefined || input.manager_id !== undefined;
  if (input.effective_on !== undefined && !datedGiven) throw new InvalidError('effective_on dates a change of title, department_id or manager_id; give one of them', { field: 'effective_on' });
  const changes: Partial<Worker> = {};
  if (input.name !== undefined) changes.name = input.name.trim();
  if (input.work_email !== undefined && input.work_email.trim().toLowerCase() !== worker.work_email.toLowerCase()) {
    await assertEmailFree(ctx, input.work_email.trim(), worker.id);
    changes.work_email = input.work_email.trim();
  } else if (input.work_email !== undefined) changes.work_email = input.work_email.trim();
  if (input.location_mrn !== undefined) Object.assign(changes, await resolveLocation(ctx, input.location_mrn));
  if (input.start_date !== undefined) changes.start_date = input.start_date;
  if (input.employment_type !== undefined) changes.employment_type = input.employment_type;
  if (input.member_id !== undefined) {
    if (input.member_id) await assertMemberFree(ctx, input.member_id, worker.id);
    changes.member_id = input.member_id;
  }
  for (const field of PRIVATE_FIELDS) {
    const value = input[field];
    if (value !== undefined) changes[field] = typeof value === 'string' ? value.trim() || null : value;
  }
  if (datedGiven) {
    if (input.department_id) await assertDepartment(ctx, input.department_id, 'department_id');
    if (input.manager_id) {
      await ctx.lock('managers');
      await assertNoManagerCycle(ctx, worker.id, input.manager_id);
    }
    const day = input.effective_on ?? today(ctx);
    const history = await historyOf(ctx, worker.id);
    const base = rowOn(history, day) ?? history[0];
    const values = {
      title: input.title === undefined ? (base?.title ?? worker.title) : input.title.trim(),
      department_id: input.department_id === undefined ? (base?.department_id ?? null) : input.department_id,
      manager_id: input.manager_id === undefined ? (base?.manager_id ?? null) : input.manager_id,
    };
    await ctx.db.workerHistory.upsert({ worker_id: worker.id, effective_on: day, ...values, recorded_by: ctx.member.id }, { conflictFields: ['worker_id', 'effective_on'] });
    if (day > today(ctx)) {
      ctx.events.stage('core.workers.change.scheduled', { worker_id: worker.id, effective_on: day }, {}, { deliverAt: new Date(`${day}T00:00:00.000Z`), dedupeKey: `worker-change:${worker.id}:${day}` });
    }
  }
  return applyCurrent(ctx, worker, changes);
}

/** Moves a worker along the lifecycle (`workerMachine`); emits the move's event. */
export async function changeStatus(ctx: WorkersContext, workerId: string, status: string): Promise<Worker> {
  const worker = await requireWorker(ctx, workerId, 'update');
  const move = workerMachine.moveTo(worker.status, status);
  await ctx.db.workers.update({ status: move.to, revision: worker.revision + 1 }, { where: { id: worker.id } });
  const row = (await ctx.db.workers.findById(worker.id))!;
  ctx.search.upsert(workerDocument(row));
  ctx.events.stage(move.event as 'core.workers.worker.activated', { ...workerFields(row), by: by(ctx) });
  if (move.to === 'offboarding' || move.to === 'onboarding') await openChecklists(ctx, row, move.to);
  return row;
}

/**
 * Deletes a worker and their history. Refused (409) while they manage someone or head a
 * department: give those another manager or head first. Emits `worker.deleted`.
 */
export async function deleteWorker(ctx: WorkersContext, workerId: string) {
  await ctx.lock('managers');
  const worker = await requireWorker(ctx, workerId, 'update');
  const reports = await ctx.db.workers.count({ where: { manager_id: worker.id } });
  const dated = await ctx.db.workerHistory.count({ where: { manager_id: worker.id, effective_on: { [Op.gt]: today(ctx) }, worker_id: { [Op.ne]: worker.id } } });
  if (dated) throw new ConflictError(`Worker ${worker.id} is the manager in ${dated} future-dated change(s) of other workers; change those first`);
  if (reports) throw new ConflictError(`Worker ${worker.id} manages ${reports} worker(s); give them another manager first`);
  const headed = await ctx.db.departments.findOne({ where: { head_id: worker.id } });
  if (headed) throw new ConflictError(`Worker ${worker.id} heads department ${headed.id} (${headed.name}); give it another head first`);
  await ctx.db.workerHistory.destroy({ where: { worker_id: worker.id } });
  await workers.remove(ctx, worker);
  return { id: worker.id, mrn: workerFields(worker).mrn, deleted: true as const };
}
