import { defineCopy } from '@wpk/sdk';
import type { AnyCtx } from '../kit.js';
import type { Models } from '../models/index.js';

/** The app's event-fed copies (the SDK's `defineCopy`: the highest revision wins; one delivery per record at a time). */
const workers = defineCopy<Models, 'workers'>({ model: 'workers' });
const contracts = defineCopy<Models, 'contracts'>({ model: 'contracts' });
const departments = defineCopy<Models, 'departments'>({ model: 'departments' });

/** What a core.workers.worker.* event carries that the copy keeps. */
export interface WorkerPayload {
  worker_id: string;
  name: string;
  member_id?: string;
  manager_id?: string;
  department_id?: string;
  status: string;
  start_date?: string;
  revision: number;
}

/**
 * Brings the copy of a worker to the event's state unless the copy already holds that revision or
 * a later one (a repeated or late delivery changes nothing). Answers the row before, or null when
 * the worker was not known, and whether the event was applied.
 */
export function keepWorker(ctx: AnyCtx, payload: WorkerPayload) {
  return workers.keep(ctx, payload.worker_id, payload.revision, {
    name: payload.name,
    member_id: payload.member_id ?? null,
    manager_id: payload.manager_id ?? null,
    department_id: payload.department_id ?? null,
    status: payload.status,
    start_date: payload.start_date ?? null,
  });
}

/** A deleted worker: the copy goes, with their requests, allocations and ledger (the worker is gone). */
export async function dropWorker(ctx: AnyCtx, workerId: string): Promise<void> {
  await ctx.lock(`copy:workers:${workerId}`);
  await ctx.db.ledger.destroy({ where: { worker_id: workerId } });
  await ctx.db.requests.destroy({ where: { worker_id: workerId } });
  await ctx.db.allocations.destroy({ where: { worker_id: workerId } });
  await ctx.db.contracts.destroy({ where: { worker_id: workerId } });
  await ctx.db.workers.destroy({ where: { id: workerId } });
}

/** What a core.workers.contract.* event carries that the copy keeps. */
export interface ContractPayload {
  contract_id: string;
  worker_id: string;
  starts_on: string;
  ends_on?: string;
  calendar_mrn?: string;
  revision: number;
}

/** The calendar id of `mrn:settings:calendar:{id}`, or null (no calendar, or not one of Settings'). */
const calendarIdOf = (mrn: string | undefined): string | null => {
  const match = mrn ? /^mrn:settings:calendar:([0-9a-f-]{36})$/i.exec(mrn) : null;
  return match ? match[1].toLowerCase() : null;
};

/** A contract created, changed or (`deleted`) deleted: the copy follows unless it holds that revision or a later one. */
export async function keepContract(ctx: AnyCtx, payload: ContractPayload, deleted: boolean): Promise<void> {
  await contracts.keep(ctx, payload.contract_id, payload.revision, { worker_id: payload.worker_id, starts_on: payload.starts_on, ends_on: payload.ends_on ?? null, calendar_id: calendarIdOf(payload.calendar_mrn), deleted });
}

/** A department created or changed (`revision` orders deliveries). */
export async function keepDepartment(ctx: AnyCtx, payload: { department_id: string; name: string; revision: number }): Promise<void> {
  await departments.keep(ctx, payload.department_id, payload.revision, { name: payload.name });
}

/** A calendar created or changed: the copy takes its working days and hours. */
export async function keepCalendar(ctx: AnyCtx, payload: { calendar_id: string; name: string; working_days: number[]; hours_per_day: number }): Promise<void> {
  const values = { name: payload.name, working_days: [...payload.working_days].sort(), hours_per_day: payload.hours_per_day };
  await ctx.db.calendars.upsert({ id: payload.calendar_id, ...values }, { conflictFields: ['id'] });
}

/** A calendar deleted: its copy and its holidays go. */
export async function dropCalendar(ctx: AnyCtx, calendarId: string): Promise<void> {
  await ctx.db.holidays.destroy({ where: { calendar_id: calendarId } });
  await ctx.db.calendars.destroy({ where: { id: calendarId } });
}

/** A holiday added. Should it arrive before its calendar, the calendar is kept as a standard week until its own event names it. */
export async function keepHoliday(ctx: AnyCtx, payload: { holiday_id: string; calendar_id: string; date: string; name: string }): Promise<void> {
  if (!(await ctx.db.calendars.findById(payload.calendar_id))) await ctx.db.calendars.create({ id: payload.calendar_id, name: 'Calendar', working_days: [1, 2, 3, 4, 5], hours_per_day: 8 });
  await ctx.db.holidays.upsert({ id: payload.holiday_id, calendar_id: payload.calendar_id, date: payload.date, name: payload.name }, { conflictFields: ['id'] });
}

/** A holiday removed. */
export async function dropHoliday(ctx: AnyCtx, holidayId: string): Promise<void> {
  await ctx.db.holidays.destroy({ where: { id: holidayId } });
}
