import { ConflictError, PayloadTooLargeError } from '@wpk/sdk';
import type { FilesBaseContext } from '../kit.js';
import { bytes } from './sizes.js';

/**
 * Plan bounds, applied on top of the settings (the smaller wins). Plans the table does not name
 * are bounded by the settings alone (and the platform's STORAGE_MAX_OBJECT_BYTES per file).
 */
export const PLAN_LIMITS: Record<string, { max_file_bytes: number; quota_bytes: number }> = {
  free: { max_file_bytes: 25 * 1024 * 1024, quota_bytes: 2 * 1024 * 1024 * 1024 },
};

/** The workspace's effective limits: settings bounded by its plan. */
export function limitsOf(ctx: FilesBaseContext): { max_file_bytes: number; quota_bytes: number; plan: string | null } {
  const plan = ctx.workspace.plan ?? null;
  const bound = plan ? PLAN_LIMITS[plan] : undefined;
  return {
    plan,
    max_file_bytes: Math.min(ctx.settings.max_file_bytes, bound?.max_file_bytes ?? Infinity),
    quota_bytes: Math.min(ctx.settings.quota_bytes, bound?.quota_bytes ?? Infinity),
  };
}

/** Serialises every change to the usage counters of the workspace (and the quota checks before them). */
export async function lockUsage(ctx: FilesBaseContext): Promise<void> {
  await ctx.lock('usage');
}

/** Bytes kept in the workspace (every version, trash included). */
export async function usedBytes(ctx: FilesBaseContext): Promise<number> {
  const rows = await ctx.db.usage.findAll({ attributes: ['bytes'] });
  return rows.reduce((sum, row) => sum + bytes(row.bytes), 0);
}

/** Refuses a file over the per-file bound (413), or one the quota has no room for (409). Call with the usage lock held. */
export async function assertRoom(ctx: FilesBaseContext, size: number, field = 'size_bytes'): Promise<void> {
  const limits = limitsOf(ctx);
  if (size > limits.max_file_bytes) throw new PayloadTooLargeError(`${field} ${size} is larger than ${limits.max_file_bytes} bytes, the largest file this workspace accepts`);
  await assertQuota(ctx, size);
}

/** Refuses `size` more bytes when the quota has no room for them (409). Call with the usage lock held. */
export async function assertQuota(ctx: FilesBaseContext, size: number): Promise<void> {
  const limits = limitsOf(ctx);
  const used = await usedBytes(ctx);
  if (used + size > limits.quota_bytes) {
    throw new ConflictError(`The workspace's storage quota is full: ${used} of ${limits.quota_bytes} bytes used, ${size} more asked; empty the trash or delete files first`);
  }
}

/** Adds (or, negative, removes) bytes and versions to an owner's counter of one type. Call with the usage lock held. */
export async function addUsage(ctx: FilesBaseContext, memberId: string, category: string, deltaBytes: number, deltaVersions: number): Promise<void> {
  if (deltaBytes === 0 && deltaVersions === 0) return;
  const row = await ctx.db.usage.findOne({ where: { member_id: memberId, category } });
  const next = { bytes: Math.max(0, bytes(row?.bytes) + deltaBytes), versions: Math.max(0, (row?.versions ?? 0) + deltaVersions) };
  await ctx.db.usage.upsert({ member_id: memberId, category, ...next }, { conflictFields: ['member_id', 'category'] });
}
