/**
 * Department shares (docs/decisions/0303-papers-department-shares.md): the app's own copies of the
 * Workers app's workers and department tree, fed by `core.workers.*` (events/index.ts); a share
 * to a department reaches the members whose worker (not terminated) is in it or in a department
 * below it.
 */
import { defineCopy, InvalidError, Op, type AppDb } from '@wpk/sdk';
import type { Models } from '../models/index.js';

export const workerCopy = defineCopy<Models, 'workerCopies'>({ model: 'workerCopies' });
export const departmentCopy = defineCopy<Models, 'departmentCopies'>({ model: 'departmentCopies' });

type Db = { db: AppDb<Models> };

/** The departments a member is in: their workers' departments and every department above them. */
export async function departmentsOf(ctx: Db, memberId: string): Promise<Set<string>> {
  const workers = await ctx.db.workerCopies.findAll({ where: { member_id: memberId, status: { [Op.ne]: 'terminated' } }, attributes: ['department_id'] });
  const found = new Set<string>();
  let next = workers.map((worker) => worker.department_id).filter((id): id is string => id !== null);
  for (let depth = 0; next.length > 0 && depth < 64; depth += 1) {
    next = next.filter((id) => !found.has(id));
    next.forEach((id) => found.add(id));
    if (next.length === 0) break;
    const parents = await ctx.db.departmentCopies.findAll({ where: { id: { [Op.in]: next } }, attributes: ['parent_id'] });
    next = parents.map((row) => row.parent_id).filter((id): id is string => id !== null);
  }
  return found;
}

/** The members in these departments or one below them (their workers not terminated). */
export async function membersOf(ctx: Db, departmentIds: string[]): Promise<Set<string>> {
  if (departmentIds.length === 0) return new Set();
  const below = await ctx.db.departmentCopies.descendants({ from: departmentIds, parent: 'parent_id' });
  const ids = [...departmentIds, ...below.map((row) => row.id)];
  const workers = await ctx.db.workerCopies.findAll({ where: { department_id: { [Op.in]: ids }, status: { [Op.ne]: 'terminated' }, member_id: { [Op.ne]: null } }, attributes: ['member_id'] });
  return new Set(workers.map((worker) => worker.member_id!));
}

/** Refuses (400 naming the share) a department the app's copy does not hold, or one deleted. */
export async function requireDepartments(ctx: Db, shares: Array<{ principal_type: string; principal_id: string }>): Promise<void> {
  const wanted = shares.map((share, index) => ({ id: share.principal_id.toLowerCase(), index, type: share.principal_type })).filter((one) => one.type === 'department');
  if (wanted.length === 0) return;
  const known = await ctx.db.departmentCopies.findAll({ where: { id: { [Op.in]: wanted.map((one) => one.id) }, deleted: false }, attributes: ['id'] });
  const ids = new Set(known.map((row) => row.id));
  const missing = wanted.find((one) => !ids.has(one.id));
  if (missing) throw new InvalidError(`shares[${missing.index}].principal_id: no department of the Workers app has the id ${missing.id}`);
}
