import type { TasksBaseContext } from '../kit.js';

/** A workspace's key prefix, from its address: `acme` → `ACME`, `my-team` → `MYTEAM`, `42x` → `T42X` (at most 6 characters, a letter first). */
export function keyPrefix(subdomain: string): string {
  const cleaned = subdomain.replace(/[^a-zA-Z0-9]/g, '').toUpperCase();
  return (/^[A-Z]/.test(cleaned) ? cleaned : `T${cleaned}`).slice(0, 6);
}

/**
 * The next task key of the workspace (`ACME-42`): the counter row, under the app's lock on it, so
 * two tasks made at once never share a number; the first key of a workspace fixes its prefix.
 * Runs in the request's transaction: a failed request hands out no number.
 */
export async function nextTaskKey(ctx: TasksBaseContext): Promise<{ number: number; key: string }> {
  await ctx.lock('task-key-counter');
  const counter = await ctx.db.taskKeyCounters.findOne();
  if (!counter) {
    const created = await ctx.db.taskKeyCounters.create({ prefix: keyPrefix(ctx.workspace.subdomain), last_number: 1 });
    return { number: 1, key: `${created.prefix}-1` };
  }
  const number = counter.last_number + 1;
  await ctx.db.taskKeyCounters.update({ last_number: number }, { where: { id: counter.id } });
  return { number, key: `${counter.prefix}-${number}` };
}
