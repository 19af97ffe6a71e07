import { defineCopy, likePattern, Op } from '@wpk/sdk';
import type { GrowthBaseContext, GrowthContext } from '../kit.js';
import type { Models } from '../models/index.js';

/** The app's event-fed copies (the SDK's `defineCopy`: the highest revision wins; one delivery per record at a time). */
const people = defineCopy<Models, 'people'>({ model: 'people' });
const departments = defineCopy<Models, 'departments'>({ model: 'departments' });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidOrNull = (value: unknown): string | null => (typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : null);
const positive = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 1;

/**
 * Keeps the copy of one worker from a `core.workers.worker.*` payload: the highest revision wins,
 * so a late or repeated delivery changes nothing; a deletion removes the row. Deliveries for one
 * worker take turns (a lock), so the check and the write are one step. Returns what it did.
 */
export async function copyWorker(ctx: GrowthBaseContext, payload: Record<string, unknown>, deleted: boolean): Promise<'kept' | 'stale' | 'malformed'> {
  const id = uuidOrNull(payload.worker_id);
  const { name, status, revision } = payload;
  if (!id || typeof name !== 'string' || typeof status !== 'string' || !positive(revision)) return 'malformed';
  if (deleted) {
    await ctx.lock(`copy:people:${id}`);
    const copy = await ctx.db.people.findById(id);
    if (copy && copy.revision >= revision) return 'stale';
    if (copy) await ctx.db.people.destroy({ where: { id } });
    return 'kept';
  }
  const values = { name: name.slice(0, 200), member_id: uuidOrNull(payload.member_id), manager_id: uuidOrNull(payload.manager_id), department_id: uuidOrNull(payload.department_id), status: status.slice(0, 20) };
  return (await people.keep(ctx, id, revision, values)).applied ? 'kept' : 'stale';
}

/** Keeps the copy of one department from a `core.workers.department.*` payload (highest revision wins). */
export async function copyDepartment(ctx: GrowthBaseContext, payload: Record<string, unknown>, deleted: boolean): Promise<'kept' | 'stale' | 'malformed'> {
  const id = uuidOrNull(payload.department_id);
  const { name, revision } = payload;
  if (!id || typeof name !== 'string' || !positive(revision)) return 'malformed';
  if (deleted) {
    await ctx.lock(`copy:departments:${id}`);
    const copy = await ctx.db.departments.findById(id);
    if (copy && copy.revision >= revision) return 'stale';
    if (copy) await ctx.db.departments.destroy({ where: { id } });
    return 'kept';
  }
  return (await departments.keep(ctx, id, revision, { name: name.slice(0, 200) })).applied ? 'kept' : 'stale';
}

/** The worker (in the copy) who is this member, if any. */
export function personOfMember(ctx: GrowthBaseContext, memberId: string) {
  return ctx.db.people.findOne({ where: { member_id: memberId } });
}

/** The ids of every worker below `workerId` in the manager tree (direct and indirect reports). */
export async function reportsOf(ctx: GrowthBaseContext, workerId: string): Promise<string[]> {
  return (await ctx.db.people.descendants({ from: [workerId], parent: 'manager_id' })).map((row) => row.id);
}

/** The workers of the copy by name, without the terminated; `q` matches the name, `member_id` finds a member's worker. */
export function listPeople(ctx: GrowthContext, filters: { q?: string; member_id?: string }) {
  const where: Record<string, unknown> = { status: { [Op.ne]: 'terminated' } };
  if (filters.q?.trim()) where.name = { [Op.iLike]: likePattern(filters.q.trim(), 'anywhere') };
  if (filters.member_id) where.member_id = filters.member_id.toLowerCase();
  return ctx.db.people.findAndCountAll({ where, order: [['name', 'ASC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
}
