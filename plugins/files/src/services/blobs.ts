import { Op } from '@wpk/sdk';
import type { Version } from '../models/index.js';
import type { FilesBaseContext } from '../kit.js';
import { bytes } from './sizes.js';
import { addUsage } from './usage.js';

/**
 * Deletes version rows (their owner's usage counted down) and then each storage object no
 * remaining version names (copies and restored versions share objects). The objects go when the
 * request commits. Call with the usage lock held; `ownerOf` maps an item id to its owner.
 */
export async function dropVersions(ctx: FilesBaseContext, versions: Version[], ownerOf: (itemId: string) => string, deleteRows = true): Promise<number> {
  if (versions.length === 0) return 0;
  let freed = 0;
  for (const version of versions) {
    freed += bytes(version.size_bytes);
    await addUsage(ctx, ownerOf(version.item_id), version.category, -bytes(version.size_bytes), -1);
  }
  if (deleteRows) await ctx.db.versions.destroy({ where: { id: { [Op.in]: versions.map((version) => version.id) } } });
  const keys = [...new Set(versions.map((version) => version.storage_key))];
  const stillUsed = new Set((await ctx.db.versions.findAll({ where: { storage_key: { [Op.in]: keys } }, attributes: ['storage_key'] })).map((row) => row.storage_key));
  for (const key of keys) if (!stillUsed.has(key)) await ctx.storage.delete(key);
  return freed;
}
