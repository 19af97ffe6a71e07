import { memberMrn, Op, type SearchDocument, type SearchHooks } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Item, Models } from './models/index.js';
import { ancestorsOf, liveDescendants } from './services/access.js';
import { categoryOf } from './services/categories.js';
import { itemResource } from './services/resources.js';
import type { FilesBaseContext } from './kit.js';
import { bytes } from './services/sizes.js';

/**
 * The search document of a live file. Only its owner and the members it (or a folder above it)
 * is shared with find it (`readers`); the picker's filters are `owner` (the owner's MRN), `type`
 * (the category: image, pdf, ...), `date` (last change: `after`/`before`), `size` (bytes:
 * `min_size`/`max_size`) and `content_type`.
 */
export function fileDocument(item: Item, folderName: string | null, readers: string[]): SearchDocument {
  return {
    type: 'file',
    id: item.id,
    title: item.name,
    subtitle: folderName ?? 'My files',
    url: `/files/${item.id}`,
    names: [item.name],
    details: folderName ? [folderName] : [],
    filters: { owner: memberMrn(item.owner_id), type: categoryOf(item.content_type), date: item.updated_at.toISOString(), size: bytes(item.size_bytes), content_type: item.content_type },
    readers: [...new Set([item.owner_id, ...readers])],
  };
}

/** The documents of the live files among `items`: each with its folder's name and every member a share above it reaches. */
async function fileDocuments(ctx: FilesBaseContext, items: Item[]): Promise<SearchDocument[]> {
  const documents: SearchDocument[] = [];
  for (const item of items) {
    if (item.kind !== 'file' || item.trashed_at) continue;
    const ancestors = await ancestorsOf(ctx, item);
    const shares = await ctx.db.shares.findAll({ where: { item_id: { [Op.in]: [item.id, ...ancestors.map((ancestor) => ancestor.id)] } }, attributes: ['member_id'] });
    documents.push(fileDocument(item, ancestors[0]?.name ?? null, shares.map((share) => share.member_id)));
  }
  return documents;
}

/** (Re-)indexes the live files among `items`. */
export async function indexFiles(ctx: FilesBaseContext, items: Item[]): Promise<void> {
  for (const document of await fileDocuments(ctx, items)) ctx.search.upsert(document);
}

/** Re-indexes an item and, for a folder, every live file under it. */
export async function indexTree(ctx: FilesBaseContext, root: Item): Promise<void> {
  await indexFiles(ctx, [root, ...(await liveDescendants(ctx, root))]);
}

export const search: Record<string, SearchHooks<Models, AppTypes>> = {
  file: {
    async reindex(ctx) {
      // By keyset, 500 files at a time: each batch's folders and shares are read together.
      const documents: SearchDocument[] = [];
      let batch: Item[] = [];
      for await (const file of itemResource.walk(ctx, { where: { kind: 'file', trashed_at: null } })) {
        batch.push(file);
        if (batch.length < 500) continue;
        documents.push(...(await fileDocuments(ctx, batch)));
        batch = [];
      }
      if (batch.length) documents.push(...(await fileDocuments(ctx, batch)));
      return documents;
    },
  },
};
