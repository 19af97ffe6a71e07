import { ForbiddenError, NotFoundError, Op } from '@wpk/sdk';
import type { Item, ShareRole } from '../models/index.js';
import type { FilesBaseContext, FilesContext } from '../kit.js';

/** What the caller may do with an item: its owner, or a member it (or a folder above it) is shared with. */
export type Access = 'owner' | ShareRole;

/** Folders nest at most this deep: ancestor walks are bounded by it. */
export const MAX_DEPTH = 64;

/** The live item's ancestors, nearest first (the item excluded). */
export async function ancestorsOf(ctx: FilesBaseContext, item: Item): Promise<Item[]> {
  const chain: Item[] = [];
  let parentId = item.parent_id;
  while (parentId && chain.length < MAX_DEPTH) {
    const parent = await ctx.db.items.findById(parentId);
    if (!parent) break;
    chain.push(parent);
    parentId = parent.parent_id;
  }
  return chain;
}

/** The caller's access to a live item: owner, or the strongest share on it or above it; null for none. */
export async function accessTo(ctx: FilesContext, item: Item): Promise<Access | null> {
  if (item.owner_id === ctx.member.id) return 'owner';
  const ids = [item.id, ...(await ancestorsOf(ctx, item)).map((ancestor) => ancestor.id)];
  const shares = await ctx.db.shares.findAll({ where: { member_id: ctx.member.id, item_id: { [Op.in]: ids } } });
  if (shares.length === 0) return null;
  return shares.some((share) => share.role === 'edit') ? 'edit' : 'read';
}

const RANK: Record<Access, number> = { read: 1, edit: 2, owner: 3 };

/**
 * A live item the caller may reach with at least `need`. An item they cannot see at all (or that
 * is in the trash, or does not exist) is a 404, as Drive and Nextcloud answer; one they can see
 * but not change is a 403 naming what is missing.
 */
export async function requireItem(ctx: FilesContext, id: string, need: Access = 'read'): Promise<{ item: Item; access: Access }> {
  const item = await ctx.db.items.findById(id);
  const access = item && !item.trashed_at ? await accessTo(ctx, item) : null;
  if (!item || !access) throw new NotFoundError(`File ${id} not found`);
  if (RANK[access] < RANK[need]) {
    throw new ForbiddenError(need === 'owner' ? `Only the owner of ${item.name} may do this` : `${item.name} is shared with you read-only`);
  }
  return { item, access };
}

/** A live folder the caller may reach with `need`; 400 naming `field` when it is a file. */
export async function requireFolder(ctx: FilesContext, id: string, need: Access, field: string): Promise<Item> {
  const item = await ctx.db.items.findById(id);
  const access = item && !item.trashed_at ? await accessTo(ctx, item) : null;
  if (!item || !access) throw new NotFoundError(`Folder ${id} not found`);
  if (item.kind !== 'folder') throw new NotFoundError(`${field} ${id} is a file, not a folder`);
  if (RANK[access] < RANK[need]) throw new ForbiddenError(`${item.name} is shared with you read-only`);
  return item;
}

/** The live items under `root` (not included), breadth first. */
export async function liveDescendants(ctx: FilesBaseContext, root: Item): Promise<Item[]> {
  if (root.kind !== 'folder') return [];
  const found: Item[] = [];
  let frontier = [root.id];
  while (frontier.length) {
    const children = await ctx.db.items.findAll({ where: { parent_id: { [Op.in]: frontier }, trashed_at: null }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
    found.push(...children);
    frontier = children.filter((child) => child.kind === 'folder').map((child) => child.id);
  }
  return found;
}
