import type { FilesBaseContext } from '../kit.js';

/**
 * When sweeps are due, and asking for one: the trash's retention and an upload's abandonment.
 * Apart from the sweep itself (sweeps.ts), which purges through trash.ts, so that trashing an
 * item (items.ts) can schedule a sweep without importing the sweep.
 */

/** An upload is abandoned this long after its link expired (bytes that arrived in time may still be completed until then). */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** The most trash roots and uploads one sweep handles; the rest wait for the next sweep, due at once. */
export const SWEEP_BATCH = 200;

export const DAY_MS = 86_400_000;

/** Days an item stays in the trash (0: until its owner empties it); 30 when the saved settings predate the setting. */
export function retentionDays(ctx: FilesBaseContext): number {
  return ctx.settings.trash_retention_days ?? 30;
}

/** When an item trashed at `trashedAt` is due for purging; null while the retention is off. */
export function trashDueAt(ctx: FilesBaseContext, trashedAt: Date): Date | null {
  const days = retentionDays(ctx);
  return days > 0 ? new Date(trashedAt.getTime() + days * DAY_MS) : null;
}

/** When an upload whose link expires at `expiresAt` counts as abandoned. */
export function abandonedAt(expiresAt: Date): Date {
  return new Date(expiresAt.getTime() + ABANDONED_AFTER_MS);
}

/**
 * Makes sure a sweep runs at `dueAt` or earlier: the app's own `core.files.sweep.scheduled`,
 * delayed to that instant. One per workspace is pending at a time (the `schedules` row): a later
 * one is not staged while an earlier one is pending, since each sweep schedules the next; an
 * earlier one replaces it. A pending sweep whose instant passed without running (an event the
 * broker dropped) counts as none, so the next trash or upload schedules afresh.
 */
export async function scheduleSweep(ctx: FilesBaseContext, dueAt: Date | null): Promise<void> {
  if (!dueAt) return;
  await ctx.lock('sweep-schedule');
  const now = ctx.now();
  const pending = await ctx.db.schedules.findOne({ where: { name: 'sweep' } });
  if (pending && pending.due_at.getTime() <= dueAt.getTime() && pending.due_at.getTime() > now.getTime()) return;
  await ctx.db.schedules.upsert({ name: 'sweep', due_at: dueAt }, { conflictFields: ['name'] });
  const due = dueAt.toISOString();
  ctx.events.stage('core.files.sweep.scheduled', { due_at: due }, {}, { deliverAt: dueAt, dedupeKey: `files-sweep:${ctx.workspace.id}:${due}` });
}
