import { defineCopy, Op } from '@wpk/sdk';
import type { FeedsBaseContext, FeedsContext } from '../kit.js';
import type { Channel, Models } from '../models/index.js';

/**
 * Department channels' audiences. A department channel is read by the members whose worker (in
 * the app's copy of the workers directory, not terminated) is in that department or one below it,
 * and by the workspace's owners and admins; to everyone else it and its posts are not there (404).
 */

/** The copies kept from `core.workers.*` (see events/index.ts). */
export const workerCopy = defineCopy<Models, 'workers'>({ model: 'workers' });
export const departmentCopy = defineCopy<Models, 'departments'>({ model: 'departments' });

/** The department id of `mrn:workers:department:{id}`, or null. */
export function departmentIdOf(mrn: string | null | undefined): string | null {
  const match = mrn ? /^mrn:workers:department:([0-9a-f-]{36})$/i.exec(mrn) : null;
  return match ? match[1].toLowerCase() : null;
}

/** The department a channel's posts are read in: a department channel's, else null (everyone). */
export const audienceDepartment = (channel: Pick<Channel, 'kind' | 'department_mrn'>) => (channel.kind === 'department' ? departmentIdOf(channel.department_mrn) : null);

/** True for a workspace owner or admin: they read every channel. */
const seesAll = (ctx: FeedsContext) => ctx.member.platform_role === 'owner' || ctx.member.platform_role === 'admin';

/** The departments whose channels a member reads: their workers' departments and every department above them. */
async function memberDepartments(ctx: FeedsBaseContext, memberId: string): Promise<Set<string>> {
  const mine = await ctx.db.workers.findAll({ where: { member_id: memberId, status: { [Op.ne]: 'terminated' } }, attributes: ['department_id'] });
  const found = new Set<string>();
  let frontier = mine.map((worker) => worker.department_id).filter((id): id is string => id !== null);
  for (let depth = 0; frontier.length > 0 && depth < 64; depth += 1) {
    frontier = frontier.filter((id) => !found.has(id));
    for (const id of frontier) found.add(id);
    if (frontier.length === 0) break;
    const rows = await ctx.db.departments.findAll({ where: { id: { [Op.in]: frontier } }, attributes: ['parent_id'] });
    frontier = rows.map((row) => row.parent_id).filter((id): id is string => id !== null);
  }
  return found;
}

const hiddenCache = new WeakMap<object, Promise<string[]>>();

/** The ids of the department channels the caller is not in (none for owners and admins); read once per request. */
export function hiddenChannels(ctx: FeedsContext): Promise<string[]> {
  if (seesAll(ctx)) return Promise.resolve([]);
  let hidden = hiddenCache.get(ctx);
  if (!hidden) {
    hidden = (async () => {
      const departmentChannels = await ctx.db.channels.findAll({ where: { kind: 'department' }, attributes: ['id', 'kind', 'department_mrn'] });
      if (departmentChannels.length === 0) return [];
      const mine = await memberDepartments(ctx, ctx.member.id);
      return departmentChannels.filter((channel) => !mine.has(audienceDepartment(channel) ?? '')).map((channel) => channel.id);
    })();
    hiddenCache.set(ctx, hidden);
  }
  return hidden;
}

/** The active members who read posts of `departmentId`: those whose worker is in it or a department below it. */
export async function audienceMembers(ctx: FeedsBaseContext, departmentId: string): Promise<Set<string>> {
  const below = await ctx.db.departments.descendants({ from: [departmentId], parent: 'parent_id' });
  const ids = [departmentId, ...below.map((row) => row.id)];
  const rows = await ctx.db.workers.findAll({ where: { department_id: { [Op.in]: ids }, status: { [Op.ne]: 'terminated' }, member_id: { [Op.ne]: null } }, attributes: ['member_id'] });
  return new Set(rows.map((row) => row.member_id!));
}
