import { memberMrn, NotFoundError, Op } from '@wpk/sdk';
import type { Item } from '../models/index.js';
import { indexFiles } from '../search.js';
import { dropVersions } from './blobs.js';
import type { FilesBaseContext, FilesContext } from '../kit.js';
import { emit } from './events.js';
import { namesIn } from './items.js';
import { named, suffixedName } from './names.js';
import { lockUsage } from './usage.js';

/** The caller's trash: each item they (or an editor) deleted, newest first (what it held comes back with it). */
export async function listTrash(ctx: FilesContext) {
  return ctx.db.items.findAndCountAll({
    where: { owner_id: ctx.member.id, trashed_at: { [Op.ne]: null }, trash_root_id: { [Op.col]: 'id' } as never },
    order: [['trashed_at', 'DESC'], ['id', 'ASC']],
    offset: ctx.page.offset,
    limit: ctx.page.limit,
  });
}

/** An item at the top of the caller's trash (what it held is restored or purged with it). */
async function requireTrashed(ctx: FilesContext, id: string): Promise<Item> {
  const item = await ctx.db.items.findById(id, { lock: 'update' });
  if (!item || item.owner_id !== ctx.member.id || !item.trashed_at || item.trash_root_id !== item.id) throw new NotFoundError(`No item ${id} in your trash`);
  return item;
}

/**
 * Restores an item and what it held. It goes back to its folder, or to the root when that folder
 * is itself in the trash or gone; a name taken there meanwhile gets the transfer's suffix
 * (`Report (2).pdf`), as Nextcloud does rather than refusing.
 */
export async function restoreItem(ctx: FilesContext, id: string): Promise<Item> {
  const item = await requireTrashed(ctx, id);
  let parentId = item.parent_id;
  if (parentId) {
    const parent = await ctx.db.items.findById(parentId);
    if (!parent || parent.trashed_at) parentId = null;
  }
  const name = suffixedName(item.name, item.kind, await namesIn(ctx, item.owner_id, parentId));
  const subtree = await ctx.db.items.findAll({ where: { trash_root_id: item.id } });
  // The new name first, while the item is still in the trash: the unique index holds at every step.
  await ctx.db.items.update({ parent_id: parentId, ...named(name), updated_by: ctx.member.id }, { where: { id: item.id } });
  await ctx.db.items.update({ trashed_at: null, trash_root_id: null, trashed_by: null }, { where: { trash_root_id: item.id } });
  const restored = (await ctx.db.items.findById(item.id))!;
  await indexFiles(ctx, [restored, ...subtree.filter((entry) => entry.id !== item.id).map((entry) => ({ ...entry, trashed_at: null }))]);
  emit(ctx, 'core.files.item.restored', { item_id: item.id, kind: item.kind, name, owner_mrn: memberMrn(item.owner_id), parent_id: parentId, restored_by: ctx.member.mrn });
  return restored;
}

/** Deletes a trashed item for good: what it held, every version, shares; bytes no other version uses. */
export async function purgeItem(ctx: FilesContext, id: string): Promise<{ id: string; purged: true; freed_bytes: number }> {
  return purgeTrashed(ctx, await requireTrashed(ctx, id), ctx.member.mrn);
}

/**
 * Purges an item at the top of a trash (locked by the caller) and what it held. `purgedBy` is the
 * member's MRN, or null when the trash retention purges it (the event then says `reason: retention`).
 */
export async function purgeTrashed(ctx: FilesBaseContext, item: Item, purgedBy: string | null): Promise<{ id: string; purged: true; freed_bytes: number }> {
  const subtree = await ctx.db.items.findAll({ where: { trash_root_id: item.id }, attributes: ['id', 'owner_id'] });
  const ids = subtree.map((entry) => entry.id);
  // Items trashed on their own before their folder keep their own trash entry: they lose the folder (restored to the root).
  await ctx.db.items.update({ parent_id: null }, { where: { parent_id: { [Op.in]: ids }, id: { [Op.notIn]: ids } } });
  await lockUsage(ctx);
  const versions = await ctx.db.versions.findAll({ where: { item_id: { [Op.in]: ids } } });
  await ctx.db.shares.destroy({ where: { item_id: { [Op.in]: ids } } });
  await ctx.db.versions.destroy({ where: { item_id: { [Op.in]: ids } } });
  await ctx.db.items.destroy({ where: { id: { [Op.in]: ids } } });
  const freed = await dropVersions(ctx, versions, () => item.owner_id, false);
  emit(ctx, 'core.files.item.purged', { item_id: item.id, kind: item.kind, name: item.name, owner_mrn: memberMrn(item.owner_id), ...(purgedBy ? { purged_by: purgedBy } : { reason: 'retention' as const }), freed_bytes: freed });
  return { id: item.id, purged: true, freed_bytes: freed };
}
