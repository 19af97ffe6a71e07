import { Op } from '@wpk/sdk';
import type { FilesBaseContext } from '../kit.js';
import { purgeTrashed } from './trash.js';

/** An upload is abandoned this long after its link expired (bytes that arrived in time may still be completed until then). */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** The most trash roots and uploads one sweep handles; the rest wait for the next sweep, due at once. */
export const SWEEP_BATCH = 200;

const DAY_MS = 86_400_000;

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

/** What one sweep did. */
export interface SweepResult {
  purged: number;
  freed_bytes: number;
  uploads_removed: number;
  next_due_at: string | null;
}

/**
 * `core.files.sweep.scheduled`: purges every trash root older than the retention (as its owner's
 * purge would, event `core.files.item.purged` with `reason: retention`) and removes abandoned
 * uploads (their row and any bytes that arrived), then schedules the next sweep for the oldest
 * work left. A sweep that is not the pending one (superseded by an earlier one, or a duplicate
 * delivery) does nothing. Idempotent.
 */
export async function runSweep(ctx: FilesBaseContext, dueAt: unknown): Promise<SweepResult | null> {
  await ctx.lock('sweep-schedule');
  const pending = await ctx.db.schedules.findOne({ where: { name: 'sweep' } });
  if (!pending || typeof dueAt !== 'string' || pending.due_at.getTime() !== new Date(dueAt).getTime()) return null;
  await ctx.db.schedules.destroy({ where: { name: 'sweep' } });
  const now = ctx.now();
  const result: SweepResult = { purged: 0, freed_bytes: 0, uploads_removed: 0, next_due_at: null };
  const days = retentionDays(ctx);
  const roots = { trashed_at: { [Op.ne]: null }, trash_root_id: { [Op.col]: 'id' } as never };
  if (days > 0) {
    const expired = await ctx.db.items.findAll({ where: { ...roots, trashed_at: { [Op.lte]: new Date(now.getTime() - days * DAY_MS) } }, order: [['trashed_at', 'ASC'], ['id', 'ASC']], limit: SWEEP_BATCH, lock: 'update' });
    for (const item of expired) {
      const purged = await purgeTrashed(ctx, item, null);
      result.purged += 1;
      result.freed_bytes += purged.freed_bytes;
    }
  }
  const abandoned = await ctx.db.uploads.findAll({ where: { expires_at: { [Op.lte]: new Date(now.getTime() - ABANDONED_AFTER_MS) } }, order: [['expires_at', 'ASC'], ['id', 'ASC']], limit: SWEEP_BATCH, lock: 'update' });
  for (const upload of abandoned) {
    await ctx.storage.delete(upload.storage_key);
    await ctx.db.uploads.destroy({ where: { id: upload.id } });
    result.uploads_removed += 1;
  }
  const nextTrash = days > 0 ? await ctx.db.items.findOne({ where: roots, order: [['trashed_at', 'ASC'], ['id', 'ASC']] }) : null;
  const nextUpload = await ctx.db.uploads.findOne({ order: [['expires_at', 'ASC'], ['id', 'ASC']] });
  const candidates = [nextTrash?.trashed_at ? trashDueAt(ctx, nextTrash.trashed_at) : null, nextUpload ? abandonedAt(nextUpload.expires_at) : null].filter((at): at is Date => at !== null);
  if (candidates.length > 0) {
    // Never in the past: work left over from a full batch is due right away.
    const next = new Date(Math.max(now.getTime(), Math.min(...candidates.map((at) => at.getTime()))));
    await scheduleSweep(ctx, next);
    result.next_due_at = next.toISOString();
  }
  return result;
}
