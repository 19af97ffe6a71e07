import { InvalidError, Op } from '@wpk/sdk';
import type { Schedule } from '../models/index.js';
import type { TasksContext } from '../kit.js';
import { notBefore } from './dates.js';
import { emit } from './events.js';
import { scheduleMachine, stateOf } from './machines.js';
import { presentSchedule } from './present.js';
import { scheduleResource } from './resources.js';

/** A schedule plans incubator tasks for a period (tasks point at it with `schedule_id`). */

export function requireSchedule(ctx: TasksContext, scheduleId: string): Promise<Schedule> {
  return scheduleResource.require(ctx, scheduleId);
}

function assertDates(start: string | null, end: string | null): void {
  if (!notBefore(end, start)) throw new InvalidError(`end_date ${end} is before start_date ${start}`);
}

/** One page of schedules, oldest first; `status` keeps open or completed ones. */
export async function listSchedules(ctx: TasksContext, status?: 'open' | 'completed') {
  const where = status === undefined ? {} : { completed_at: status === 'completed' ? { [Op.ne]: null } : null };
  const { rows, count } = await ctx.db.schedules.findAndCountAll({ where, order: [['created_at', 'ASC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
  return { rows: rows.map(presentSchedule), count };
}

/** Creates a schedule. Emits `schedule.created`. */
export async function createSchedule(ctx: TasksContext, input: { name: string; start_date?: string | null; end_date?: string | null }) {
  assertDates(input.start_date ?? null, input.end_date ?? null);
  const schedule = await ctx.db.schedules.create({ name: input.name, start_date: input.start_date ?? null, end_date: input.end_date ?? null, creator_id: ctx.member.id, completed_at: null, completed_by: null });
  emit(ctx, 'core.tasks.schedule.created', { schedule_id: schedule.id });
  return presentSchedule(schedule);
}

/** Renames or re-dates a schedule. Emits `schedule.updated` when something changed. */
export async function updateSchedule(ctx: TasksContext, scheduleId: string, input: { name?: string; start_date?: string | null; end_date?: string | null }) {
  const schedule = await requireSchedule(ctx, scheduleId);
  const fields = (['name', 'start_date', 'end_date'] as const).filter((field) => input[field] !== undefined && input[field] !== schedule[field]);
  if (fields.length === 0) return presentSchedule(schedule);
  const changes: Partial<Schedule> = {};
  for (const field of fields) Object.assign(changes, { [field]: input[field] });
  const next = { ...schedule, ...changes };
  assertDates(next.start_date, next.end_date);
  await ctx.db.schedules.update(changes, { where: { id: schedule.id } });
  emit(ctx, 'core.tasks.schedule.updated', { schedule_id: schedule.id });
  return presentSchedule((await ctx.db.schedules.findById(schedule.id))!);
}

/** Completes a schedule (409 naming both states when it already is); its tasks are untouched. Emits `schedule.completed`. */
export async function completeSchedule(ctx: TasksContext, scheduleId: string) {
  const schedule = await requireSchedule(ctx, scheduleId);
  scheduleMachine.move(stateOf(schedule), 'complete');
  await ctx.db.schedules.update({ completed_at: new Date(), completed_by: ctx.member.id }, { where: { id: schedule.id } });
  emit(ctx, 'core.tasks.schedule.completed', { schedule_id: schedule.id });
  return presentSchedule((await ctx.db.schedules.findById(schedule.id))!);
}
