import { ConflictError, conflictOnDuplicate, InvalidError, memberMrn, NotFoundError, Op } from '@wpk/sdk';
import type { Item } from '../models/index.js';
import { indexFiles, indexTree } from '../search.js';
import { ancestorsOf, liveDescendants, requireFolder, requireItem, type Access } from './access.js';
import type { FilesBaseContext, FilesContext } from '../kit.js';
import { bytes } from './sizes.js';
import { emit } from './events.js';
import { scheduleSweep, trashDueAt } from './sweep-schedule.js';
import { checkName, named } from './names.js';
import { addUsage, assertQuota, lockUsage } from './usage.js';

/** A copy brings at most this many items (a folder and everything in it). */
export const MAX_COPY_ITEMS = 5000;

/** The message of a name already used in a folder. */
export function nameTaken(name: string): string {
  return `A file or folder named ${name} already exists in this folder`;
}

/** True when a live item of the owner's folder (root: null) already has this name, ignoring case (`except` aside). */
export async function nameInUse(ctx: FilesBaseContext, ownerId: string, parentId: string | null, name: string, except?: string): Promise<boolean> {
  const siblings = await ctx.db.items.findAll({ where: { owner_id: ownerId, parent_id: parentId, trashed_at: null }, attributes: ['id', 'name'] });
  return siblings.some((sibling) => sibling.id !== except && sibling.name.toLowerCase() === name.toLowerCase());
}

/** The lower-cased names of the live items of a folder (root: null) of an owner. */
export async function namesIn(ctx: FilesBaseContext, ownerId: string, parentId: string | null): Promise<Set<string>> {
  const siblings = await ctx.db.items.findAll({ where: { owner_id: ownerId, parent_id: parentId, trashed_at: null }, attributes: ['name'] });
  return new Set(siblings.map((sibling) => sibling.name.toLowerCase()));
}

/**
 * One page of a folder: the caller's root when `folderId` is absent, else a folder they can
 * read. Folders first, then files, each by name.
 */
export async function listFolder(ctx: FilesContext, folderId: string | undefined): Promise<{ rows: Item[]; count: number; access: Access; folder: Item | null }> {
  const folder = folderId ? await requireFolder(ctx, folderId, 'read', 'folder_id') : null;
  const access: Access = folder ? (await requireItem(ctx, folder.id)).access : 'owner';
  const where = folder ? { parent_id: folder.id, trashed_at: null } : { owner_id: ctx.member.id, parent_id: null, trashed_at: null };
  const { rows, count } = await ctx.db.items.findAndCountAll({ where, order: [['kind', 'DESC'], ['sort_name', 'ASC'], ['name', 'ASC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
  return { rows, count, access, folder };
}

/** Items other members shared with the caller (the shared item itself, not what is under it), newest share first. */
export async function listShared(ctx: FilesContext): Promise<{ rows: Array<{ item: Item; role: string }>; count: number }> {
  const shares = await ctx.db.shares.findAll({ where: { member_id: ctx.member.id }, order: [['created_at', 'DESC'], ['item_id', 'ASC']] });
  const items = shares.length ? await ctx.db.items.findAll({ where: { id: { [Op.in]: shares.map((share) => share.item_id) }, trashed_at: null } }) : [];
  const byId = new Map(items.map((item) => [item.id, item]));
  const live = shares.filter((share) => byId.has(share.item_id)).map((share) => ({ item: byId.get(share.item_id)!, role: share.role }));
  return { rows: live.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), count: live.length };
}

/** Where a new item goes: the caller's root, or a folder they may edit (the item is then the folder owner's, as in Nextcloud). */
export async function destination(ctx: FilesContext, parentId: string | null | undefined, field: string): Promise<{ ownerId: string; parent: Item | null }> {
  if (!parentId) return { ownerId: ctx.member.id, parent: null };
  const parent = await requireFolder(ctx, parentId, 'edit', field);
  return { ownerId: parent.owner_id, parent };
}

export async function createFolder(ctx: FilesContext, input: { name: string; parent_id?: string | null }): Promise<Item> {
  const name = checkName(input.name);
  const { ownerId, parent } = await destination(ctx, input.parent_id, 'parent_id');
  if (parent && (await ancestorsOf(ctx, parent)).length + 1 >= 64) throw new InvalidError('parent_id: folders nest at most 64 deep');
  if (await nameInUse(ctx, ownerId, parent?.id ?? null, name)) throw new ConflictError(nameTaken(name));
  const folder = await conflictOnDuplicate(
    ctx.db.items.create({ kind: 'folder', owner_id: ownerId, parent_id: parent?.id ?? null, ...named(name), created_by: ctx.member.id, updated_by: ctx.member.id }),
    nameTaken(name),
  );
  emit(ctx, 'core.files.folder.created', { item_id: folder.id, kind: 'folder', name, owner_mrn: memberMrn(ownerId), parent_id: folder.parent_id, created_by: ctx.member.mrn });
  return folder;
}

/**
 * Renames and/or moves an item (`parent_id` null: to the root of its owner's space). A move
 * stays within the owner's space (a folder of another member is a copy's job), never into the
 * item itself or below it.
 */
export async function updateItem(ctx: FilesContext, id: string, input: { name?: string; parent_id?: string | null }): Promise<Item> {
  const { item } = await requireItem(ctx, id, 'edit');
  const changes: Partial<Item> = {};
  const name = input.name === undefined ? item.name : checkName(input.name);
  if (name !== item.name) Object.assign(changes, named(name));
  let parentId = item.parent_id;
  if (input.parent_id !== undefined && input.parent_id !== item.parent_id) {
    if (input.parent_id === null) {
      if (item.owner_id !== ctx.member.id) throw new InvalidError(`parent_id: only the owner may move ${item.name} to the root of their space`);
      parentId = null;
    } else {
      const parent = await requireFolder(ctx, input.parent_id, 'edit', 'parent_id');
      if (parent.owner_id !== item.owner_id) throw new InvalidError(`parent_id ${parent.id} is in another member's space; copy ${item.name} there instead`);
      if (parent.id === item.id || (await ancestorsOf(ctx, parent)).some((ancestor) => ancestor.id === item.id)) {
        throw new InvalidError(`parent_id: ${item.name} cannot move into itself or a folder inside it`);
      }
      parentId = parent.id;
    }
    changes.parent_id = parentId;
  }
  if (Object.keys(changes).length === 0) return item;
  if (await nameInUse(ctx, item.owner_id, parentId, name, item.id)) throw new ConflictError(nameTaken(name));
  await conflictOnDuplicate(ctx.db.items.update({ ...changes, updated_by: ctx.member.id }, { where: { id: item.id } }), nameTaken(name));
  const updated = (await ctx.db.items.findById(item.id))!;
  await indexTree(ctx, updated);
  emit(ctx, 'core.files.item.updated', {
    item_id: item.id,
    kind: item.kind,
    name: updated.name,
    owner_mrn: memberMrn(item.owner_id),
    parent_id: updated.parent_id,
    changed_fields: Object.keys(changes).filter((field) => field !== 'sort_name') as Array<'name' | 'parent_id'>,
    updated_by: ctx.member.mrn,
  });
  return updated;
}

/**
 * Moves an item and everything under it to its owner's trash. Its owner may, and a member it is
 * shared with for editing through a folder above it (not the shared item itself, which only its
 * owner may delete).
 */
export async function trashItem(ctx: FilesContext, id: string): Promise<Item> {
  const { item, access } = await requireItem(ctx, id, 'edit');
  if (access !== 'owner' && (await ctx.db.shares.count({ where: { item_id: item.id, member_id: ctx.member.id } })) > 0) {
    throw new InvalidError(`${item.name} is shared with you: only its owner may delete it`);
  }
  const subtree = [item, ...(await liveDescendants(ctx, item))];
  const now = ctx.now();
  await ctx.db.items.update({ trashed_at: now, trash_root_id: item.id, trashed_by: ctx.member.id }, { where: { id: { [Op.in]: subtree.map((entry) => entry.id) } } });
  await scheduleSweep(ctx, trashDueAt(ctx, now));
  for (const entry of subtree) if (entry.kind === 'file') ctx.search.remove('file', entry.id);
  emit(ctx, 'core.files.item.trashed', { item_id: item.id, kind: item.kind, name: item.name, owner_mrn: memberMrn(item.owner_id), trashed_by: ctx.member.mrn });
  return (await ctx.db.items.findById(item.id))!;
}

/**
 * Copies an item into a folder the caller may edit (default: beside the original when they may
 * edit there, else their root). A folder is copied with everything in it; a file with its current
 * version only (as Google Drive does), its bytes shared with the original until either changes.
 */
export async function copyItem(ctx: FilesContext, id: string, input: { parent_id?: string | null; name?: string }): Promise<Item> {
  const { item: source } = await requireItem(ctx, id, 'read');
  let target: { ownerId: string; parent: Item | null };
  if (input.parent_id !== undefined) target = await destination(ctx, input.parent_id, 'parent_id');
  else if (source.owner_id === ctx.member.id) target = { ownerId: source.owner_id, parent: source.parent_id ? await ctx.db.items.findById(source.parent_id) : null };
  else target = { ownerId: ctx.member.id, parent: null };
  if (source.kind === 'folder' && target.parent) {
    if (target.parent.id === source.id || (await ancestorsOf(ctx, target.parent)).some((ancestor) => ancestor.id === source.id)) {
      throw new InvalidError(`parent_id: ${source.name} cannot be copied into itself or a folder inside it`);
    }
  }
  const descendants = await liveDescendants(ctx, source);
  if (descendants.length + 1 > MAX_COPY_ITEMS) throw new InvalidError(`${source.name} holds more than ${MAX_COPY_ITEMS} items, the most one copy brings`);
  const parentId = target.parent?.id ?? null;
  const taken = await namesIn(ctx, target.ownerId, parentId);
  let name: string;
  if (input.name !== undefined) {
    name = checkName(input.name);
    if (taken.has(name.toLowerCase())) throw new ConflictError(nameTaken(name));
  } else {
    name = copyName(source.name, source.kind, taken);
  }
  const files = [source, ...descendants].filter((entry) => entry.kind === 'file');
  const versions = files.length ? await ctx.db.versions.findAll({ where: { id: { [Op.in]: files.map((file) => file.version_id!).filter(Boolean) } } }) : [];
  const versionOf = new Map(versions.map((version) => [version.item_id, version]));
  await lockUsage(ctx);
  const total = versions.reduce((sum, version) => sum + bytes(version.size_bytes), 0);
  // A copy is bounded by the quota, not by the per-file limit (each file already passed it).
  await assertQuota(ctx, total);

  const newIds = new Map<string, string>();
  const created: Item[] = [];
  for (const entry of [source, ...descendants]) {
    const isRoot = entry.id === source.id;
    const copy = await conflictOnDuplicate(
      ctx.db.items.create({
        kind: entry.kind,
        owner_id: target.ownerId,
        parent_id: isRoot ? parentId : newIds.get(entry.parent_id!)!,
        ...named(isRoot ? name : entry.name),
        content_type: entry.content_type,
        size_bytes: bytes(entry.size_bytes),
        version_number: entry.kind === 'file' ? 1 : 0,
        created_by: ctx.member.id,
        updated_by: ctx.member.id,
      }),
      nameTaken(name),
    );
    newIds.set(entry.id, copy.id);
    const version = versionOf.get(entry.id);
    if (version) {
      const copied = await ctx.db.versions.create({ item_id: copy.id, number: 1, storage_key: version.storage_key, size_bytes: bytes(version.size_bytes), content_type: version.content_type, sha256: version.sha256, category: version.category, created_by: ctx.member.id });
      await ctx.db.items.update({ version_id: copied.id }, { where: { id: copy.id } });
      await addUsage(ctx, target.ownerId, version.category, bytes(version.size_bytes), 1);
    }
    created.push((await ctx.db.items.findById(copy.id))!);
  }
  await indexFiles(ctx, created);
  const root = created[0];
  emit(ctx, 'core.files.item.copied', { item_id: root.id, source_id: source.id, kind: root.kind, name: root.name, owner_mrn: memberMrn(root.owner_id), parent_id: root.parent_id, copied_by: ctx.member.mrn });
  return root;
}

/** `Report.pdf` → `Copy of Report.pdf`, then `Copy of Report (2).pdf` ... when taken (Google Drive's form). */
function copyName(name: string, kind: 'file' | 'folder', taken: Set<string>): string {
  const base = `Copy of ${name}`.slice(0, 255);
  if (!taken.has(base.toLowerCase())) return base;
  const dot = kind === 'file' ? base.lastIndexOf('.') : -1;
  const stem = dot > 'Copy of '.length ? base.slice(0, dot) : base;
  const extension = dot > 'Copy of '.length ? base.slice(dot) : '';
  for (let n = 2; ; n += 1) {
    const candidate = `${stem.slice(0, 255 - extension.length - ` (${n})`.length)} (${n})${extension}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** A 404 for an item id that names nothing the caller can see (for routes that look items up themselves). */
export function itemNotFound(id: string): NotFoundError {
  return new NotFoundError(`File ${id} not found`);
}
