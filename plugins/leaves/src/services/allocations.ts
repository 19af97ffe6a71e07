import { ConflictError, InvalidError, NotFoundError } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Allocation, Period } from '../models/index.js';
import { addDays, daysBetween, hundredths, units } from './days.js';
import { append, assertCovers, balanceOf, lockBalance, today } from './ledger.js';
import { requireType } from './types.js';

/** What `POST /leaves/allocations` takes: a fixed amount, or an accrual plan (`period`: the amount is per full period). */
export interface AllocationInput {
  worker_id: string;
  type_id: string;
  amount: number;
  period?: Period | null;
  cap?: number | null;
  starts_on?: string;
  expires_on?: string | null;
  note?: string;
}

/** The first day of the period `day` falls in. */
export function periodStart(period: Period, day: string): string {
  return period === 'monthly' ? `${day.slice(0, 7)}-01` : `${day.slice(0, 4)}-01-01`;
}

/** The first day of the period after the one starting on `start`. */
export function nextPeriod(period: Period, start: string): string {
  const year = Number(start.slice(0, 4));
  if (period === 'yearly') return `${year + 1}-01-01`;
  const month = Number(start.slice(5, 7));
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
}

/**
 * What a plan grants for the period starting on `start` (hundredths): the full amount, or for the
 * period the plan starts in, the share of its days from `starts_on` on (rounded down to hundredths).
 */
export function periodGrant(allocation: Pick<Allocation, 'amount' | 'starts_on'> & { period: Period }, start: string): number {
  const end = addDays(nextPeriod(allocation.period, start), -1);
  if (allocation.starts_on <= start) return allocation.amount;
  return Math.floor((allocation.amount * daysBetween(allocation.starts_on, end)) / daysBetween(start, end));
}

/** An allocation as answered, with what it granted so far. */
export function presentAllocation(allocation: Allocation, granted: number) {
  return {
    id: allocation.id,
    worker_id: allocation.worker_id,
    type_id: allocation.type_id,
    kind: allocation.period ? ('accrual' as const) : ('manual' as const),
    amount: units(allocation.amount),
    period: allocation.period,
    cap: allocation.cap === null ? null : units(allocation.cap),
    starts_on: allocation.starts_on,
    expires_on: allocation.expires_on,
    note: allocation.note,
    granted: units(granted),
    created_at: allocation.created_at,
  };
}

/** What the allocation's own grants (allocation and accrual entries) add up to. */
export async function grantedBy(ctx: AnyCtx, allocationId: string): Promise<number> {
  const entries = await ctx.db.ledger.findAll({ where: { allocation_id: allocationId } });
  return entries.filter((entry) => entry.kind === 'allocation' || entry.kind === 'accrual').reduce((sum, entry) => sum + entry.amount, 0);
}

/** Schedules the balance's year-end carry-over for the year of `day` (once per worker, type and year). */
export function scheduleCarryOver(ctx: AnyCtx, workerId: string, typeId: string, day: string): void {
  const year = Number(day.slice(0, 4));
  ctx.events.stage('core.leaves.carry_over.scheduled', { worker_id: workerId, type_id: typeId, year }, {}, { deliverAt: new Date(`${year + 1}-01-01T00:00:00.000Z`), dedupeKey: `carry-over:${workerId}:${typeId}:${year}` });
}

/**
 * Grants every period of a plan that has started by today and is not granted yet (each once: its
 * ledger entry's key is the period), never past the cap or the expiry, and schedules the next
 * period's delayed event.
 */
export async function accrue(ctx: AnyCtx, allocationId: string): Promise<void> {
  const allocation = await ctx.db.allocations.findById(allocationId);
  if (!allocation?.period) return;
  const period = allocation.period as Period;
  await lockBalance(ctx, allocation.worker_id, allocation.type_id);
  let granted = await grantedBy(ctx, allocation.id);
  const now = today(ctx);
  let start = periodStart(period, allocation.starts_on);
  for (; start <= now && (!allocation.expires_on || start < allocation.expires_on); start = nextPeriod(period, start)) {
    const room = allocation.cap === null ? Infinity : allocation.cap - granted;
    const amount = Math.min(periodGrant({ ...allocation, period }, start), room);
    if (amount <= 0) continue;
    const written = await append(ctx, { worker_id: allocation.worker_id, type_id: allocation.type_id, kind: 'accrual', amount, occurred_on: start < allocation.starts_on ? allocation.starts_on : start, allocation_id: allocation.id, dedupe_key: `accrual:${allocation.id}:${start}` });
    if (written) granted += amount;
  }
  const capped = allocation.cap !== null && granted >= allocation.cap;
  if (!capped && (!allocation.expires_on || start < allocation.expires_on)) {
    ctx.events.stage('core.leaves.accrual.scheduled', { allocation_id: allocation.id, period_start: start }, {}, { deliverAt: new Date(`${start}T00:00:00.000Z`), dedupeKey: `accrual:${allocation.id}:${start}` });
  }
}

/** What an allocation still holds lapses on its expiry day: at most what it granted, at most the balance. */
export async function expire(ctx: AnyCtx, allocationId: string): Promise<void> {
  const allocation = await ctx.db.allocations.findById(allocationId);
  if (!allocation?.expires_on || allocation.expires_on > today(ctx)) return;
  await lockBalance(ctx, allocation.worker_id, allocation.type_id);
  const lapsing = Math.min(await grantedBy(ctx, allocation.id), Math.max(0, await balanceOf(ctx, allocation.worker_id, allocation.type_id)));
  if (lapsing > 0) await append(ctx, { worker_id: allocation.worker_id, type_id: allocation.type_id, kind: 'expiry', amount: -lapsing, occurred_on: allocation.expires_on, allocation_id: allocation.id, dedupe_key: `expiry:${allocation.id}` });
}

/** On 1 January: what the balance of the year before holds above the type's carry-over cap lapses. */
export async function carryOver(ctx: AnyCtx, workerId: string, typeId: string, year: number): Promise<void> {
  const type = await ctx.db.leaveTypes.findById(typeId);
  if (!type || !(await ctx.db.workers.findById(workerId))) return;
  const opens = `${year + 1}-01-01`;
  if (opens > today(ctx)) return;
  await lockBalance(ctx, workerId, typeId);
  scheduleCarryOver(ctx, workerId, typeId, opens);
  if (type.carry_over_cap === null) return;
  const excess = (await balanceOf(ctx, workerId, typeId, opens)) - type.carry_over_cap;
  if (excess > 0) await append(ctx, { worker_id: workerId, type_id: typeId, kind: 'carry_over', amount: -excess, occurred_on: opens, dedupe_key: `carry-over:${workerId}:${typeId}:${year}` });
}

/**
 * Grants an allocation: a manual one enters the ledger at once; a plan grants each period that has
 * started (prorated from its start), then one period after another on the broker's delayed
 * events. Schedules its expiry and the year-end carry-over. Emits `allocation.granted`.
 */
export async function grant(ctx: AnyCtx, input: AllocationInput, grantedBy: string | null, by: string | null): Promise<Allocation> {
  const worker = await ctx.db.workers.findById(input.worker_id);
  if (!worker) throw new InvalidError(`worker_id ${input.worker_id} is not a worker known to Leaves`, { field: 'worker_id' });
  const type = await ctx.db.leaveTypes.findById(input.type_id);
  if (!type) throw new InvalidError(`type_id ${input.type_id} is not a leave type of this workspace`, { field: 'type_id' });
  if (type.unit === 'day' && hundredths(input.amount) % 50 !== 0) throw new InvalidError(`amount must be a whole or half number of days for ${type.name}`, { field: 'amount' });
  if (!input.period && input.cap !== undefined && input.cap !== null) throw new InvalidError('cap applies to an accrual plan (give period)', { field: 'cap' });
  const starts = input.starts_on ?? (worker.start_date && worker.start_date > today(ctx) ? worker.start_date : today(ctx));
  if (input.expires_on && input.expires_on <= starts) throw new InvalidError(`expires_on must be after starts_on (${starts})`, { field: 'expires_on' });
  await lockBalance(ctx, worker.id, type.id);
  const allocation = await ctx.db.allocations.create({
    worker_id: worker.id,
    type_id: type.id,
    amount: hundredths(input.amount),
    period: input.period ?? null,
    cap: input.cap === undefined || input.cap === null ? null : hundredths(input.cap),
    starts_on: starts,
    expires_on: input.expires_on ?? null,
    note: input.note?.trim() ?? '',
    granted_by: grantedBy,
  });
  if (allocation.period) await accrue(ctx, allocation.id);
  else await append(ctx, { worker_id: worker.id, type_id: type.id, kind: 'allocation', amount: allocation.amount, occurred_on: starts, allocation_id: allocation.id, dedupe_key: `allocation:${allocation.id}` });
  if (allocation.expires_on) ctx.events.stage('core.leaves.expiry.scheduled', { allocation_id: allocation.id }, {}, { deliverAt: new Date(`${allocation.expires_on}T00:00:00.000Z`), dedupeKey: `expiry:${allocation.id}` });
  scheduleCarryOver(ctx, worker.id, type.id, starts);
  ctx.events.stage('core.leaves.allocation.granted', {
    allocation_id: allocation.id, worker_id: worker.id, type_id: type.id, kind: allocation.period ? 'accrual' : 'manual', amount: units(allocation.amount),
    ...(allocation.period ? { period: allocation.period as Period } : {}), starts_on: starts, ...(allocation.expires_on ? { expires_on: allocation.expires_on } : {}), ...(by ? { by } : {}),
  });
  return allocation;
}

/** The allocation of the workspace; 404 otherwise. */
export async function requireAllocation(ctx: AnyCtx, allocationId: string): Promise<Allocation> {
  const allocation = await ctx.db.allocations.findById(allocationId);
  if (!allocation) throw new NotFoundError(`Allocation ${allocationId} not found`);
  return allocation;
}

/**
 * Withdraws an allocation: what it granted and still counts is taken back by an entry (the ledger
 * keeps its history), refused when that would leave a balance below zero the type does not allow.
 */
export async function revoke(ctx: Ctx, allocationId: string) {
  const allocation = await requireAllocation(ctx, allocationId);
  await lockBalance(ctx, allocation.worker_id, allocation.type_id);
  const type = await requireType(ctx, allocation.type_id);
  const entries = await ctx.db.ledger.findAll({ where: { allocation_id: allocation.id } });
  const holds = entries.reduce((sum, entry) => sum + entry.amount, 0);
  if (holds > 0) {
    const balance = await balanceOf(ctx, allocation.worker_id, allocation.type_id);
    try {
      assertCovers(type, balance, holds, `Withdrawing allocation ${allocation.id}`);
    } catch (error) {
      throw new ConflictError((error as Error).message);
    }
    await append(ctx, { worker_id: allocation.worker_id, type_id: allocation.type_id, kind: 'allocation', amount: -holds, occurred_on: today(ctx), allocation_id: allocation.id, dedupe_key: `revoke:${allocation.id}` });
  }
  await ctx.db.allocations.destroy({ where: { id: allocation.id } });
  return { id: allocation.id, deleted: true as const, taken_back: units(holds) };
}
