import { Op } from '@wpk/sdk';
import type { FilesBaseContext } from '../kit.js';
import { purgeTrashed } from './trash.js';
import { ABANDONED_AFTER_MS, abandonedAt, DAY_MS, retentionDays, scheduleSweep, SWEEP_BATCH, trashDueAt } from './sweep-schedule.js';

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
