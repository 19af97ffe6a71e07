import { ConflictError, conflictOnDuplicate, InvalidError, memberMrn, newId, NotFoundError, Op } from '@wpk/sdk';
import type { Item, Upload, Version } from '../models/index.js';
import { indexFiles } from '../search.js';
import { requireItem } from './access.js';
import { dropVersions } from './blobs.js';
import { categoryOf } from './categories.js';
import type { FilesContext } from '../kit.js';
import { bytes } from './sizes.js';
import { emit } from './events.js';
import { abandonedAt, scheduleSweep } from './sweep-schedule.js';
import { destination, nameInUse, nameTaken } from './items.js';
import { checkName, named } from './names.js';
import { addUsage, assertRoom, lockUsage } from './usage.js';

export interface UploadInput {
  name?: string;
  folder_id?: string | null;
  file_id?: string;
  size_bytes: number;
  content_type?: string;
}

/**
 * Starts an upload. A new file names its `name` (and `folder_id`, default the caller's root); a
 * new version of a file names `file_id` (an overwrite, as Nextcloud's PUT on an existing path).
 * The declared size is checked against the per-file limit and the quota now, and bounds the link:
 * the bytes are streamed to `upload_url` (HTTP PUT, counted as they arrive, refused past the size),
 * then `POST /uploads/{id}/completion` makes the file.
 */
export async function startUpload(ctx: FilesContext, input: UploadInput): Promise<{ upload: Upload; url: string; expiresAt: Date }> {
  if (input.file_id !== undefined && (input.folder_id !== undefined || input.name !== undefined)) {
    throw new InvalidError('file_id (a new version) cannot go with name or folder_id (a new file)');
  }
  let ownerId: string;
  let parentId: string | null;
  let itemId: string | null = null;
  let name: string;
  if (input.file_id !== undefined) {
    const { item } = await requireItem(ctx, input.file_id, 'edit');
    if (item.kind !== 'file') throw new InvalidError(`file_id ${item.id} is a folder; upload into it with folder_id`);
    ownerId = item.owner_id;
    parentId = item.parent_id;
    itemId = item.id;
    name = item.name;
  } else {
    if (input.name === undefined) throw new InvalidError('name is required (or file_id, for a new version of a file)');
    name = checkName(input.name);
    const target = await destination(ctx, input.folder_id, 'folder_id');
    ownerId = target.ownerId;
    parentId = target.parent?.id ?? null;
    if (await nameInUse(ctx, ownerId, parentId, name)) throw new ConflictError(`${nameTaken(name)}; upload with file_id to add a version`);
  }
  await lockUsage(ctx);
  await assertRoom(ctx, input.size_bytes);
  const seconds = ctx.settings.link_seconds;
  const upload = await ctx.db.uploads.create({
    owner_id: ownerId,
    parent_id: parentId,
    item_id: itemId,
    name,
    size_bytes: input.size_bytes,
    content_type: input.content_type ?? null,
    storage_key: `blobs/${newId()}`,
    created_by: ctx.member.id,
    expires_at: new Date(ctx.now().getTime() + seconds * 1000),
  });
  await scheduleSweep(ctx, abandonedAt(upload.expires_at));
  const link = await ctx.storage.signedUploadUrl(upload.storage_key, { expiresInSeconds: seconds, maxBytes: Math.max(1, input.size_bytes), ...(input.content_type ? { contentType: input.content_type } : {}) });
  return { upload, url: link.url, expiresAt: link.expires_at };
}

async function requireUpload(ctx: FilesContext, id: string): Promise<Upload> {
  const upload = await ctx.db.uploads.findById(id, { lock: 'update' });
  if (!upload || upload.created_by !== ctx.member.id) throw new NotFoundError(`Upload ${id} not found`);
  return upload;
}

/**
 * Finishes an upload whose bytes arrived: a new file (`core.files.file.created`) or a new
 * current version of its file (`core.files.version.created`; versions beyond `max_versions`
 * go, oldest first). The actual size is checked against the limits again.
 */
export async function completeUpload(ctx: FilesContext, id: string): Promise<{ item: Item; version: Version; created: boolean }> {
  const upload = await requireUpload(ctx, id);
  const stored = await ctx.storage.head(upload.storage_key);
  if (!stored) throw new ConflictError(`No bytes have arrived for upload ${upload.id} yet: PUT the file to its upload_url first`);
  await lockUsage(ctx);
  await assertRoom(ctx, stored.size_bytes, 'the uploaded file');
  const category = categoryOf(stored.content_type);
  let item: Item;
  let created = false;
  if (upload.item_id) {
    const target = await ctx.db.items.findById(upload.item_id, { lock: 'update' });
    if (!target || target.trashed_at) throw new ConflictError(`The file of upload ${upload.id} was deleted meanwhile`);
    item = target;
  } else {
    const parent = upload.parent_id ? await ctx.db.items.findById(upload.parent_id) : null;
    if (upload.parent_id && (!parent || parent.trashed_at)) throw new ConflictError(`The folder of upload ${upload.id} was deleted meanwhile`);
    if (await nameInUse(ctx, upload.owner_id, upload.parent_id, upload.name)) throw new ConflictError(`${nameTaken(upload.name)}; upload with file_id to add a version`);
    item = await conflictOnDuplicate(
      ctx.db.items.create({ kind: 'file', owner_id: upload.owner_id, parent_id: upload.parent_id, ...named(upload.name), created_by: ctx.member.id, updated_by: ctx.member.id }),
      nameTaken(upload.name),
    );
    created = true;
  }
  const number = item.version_number + 1;
  const version = await ctx.db.versions.create({ item_id: item.id, number, storage_key: upload.storage_key, size_bytes: stored.size_bytes, content_type: stored.content_type, sha256: stored.sha256, category, created_by: ctx.member.id });
  await ctx.db.items.update({ version_id: version.id, version_number: number, size_bytes: stored.size_bytes, content_type: stored.content_type, updated_by: ctx.member.id }, { where: { id: item.id } });
  await addUsage(ctx, item.owner_id, category, stored.size_bytes, 1);
  await ctx.db.uploads.destroy({ where: { id: upload.id } });
  await pruneVersions(ctx, item);
  const updated = (await ctx.db.items.findById(item.id))!;
  await indexFiles(ctx, [updated]);
  if (created) {
    emit(ctx, 'core.files.file.created', { item_id: item.id, kind: 'file', name: item.name, owner_mrn: memberMrn(item.owner_id), parent_id: item.parent_id, created_by: ctx.member.mrn, version_id: version.id, size_bytes: stored.size_bytes, content_type: stored.content_type });
  } else {
    emit(ctx, 'core.files.version.created', { item_id: item.id, version_id: version.id, number, size_bytes: stored.size_bytes, content_type: stored.content_type, created_by: ctx.member.mrn });
  }
  return { item: updated, version, created };
}

/** Abandons an upload: its row, and the bytes if some arrived. */
export async function cancelUpload(ctx: FilesContext, id: string): Promise<{ id: string; deleted: true }> {
  const upload = await requireUpload(ctx, id);
  await ctx.db.uploads.destroy({ where: { id: upload.id } });
  await ctx.storage.delete(upload.storage_key);
  return { id: upload.id, deleted: true };
}

/** Deletes the file's versions beyond `max_versions`, oldest first (never the current one). */
async function pruneVersions(ctx: FilesContext, item: Item): Promise<void> {
  const versions = await ctx.db.versions.findAll({ where: { item_id: item.id }, order: [['number', 'DESC']] });
  const excess = versions.slice(ctx.settings.max_versions);
  await dropVersions(ctx, excess, () => item.owner_id);
}

/** A file's versions, newest first. */
export async function listVersions(ctx: FilesContext, fileId: string) {
  const { item } = await requireItem(ctx, fileId, 'read');
  if (item.kind !== 'file') throw new InvalidError(`${item.name} is a folder: folders have no versions`);
  const { rows, count } = await ctx.db.versions.findAndCountAll({ where: { item_id: item.id }, order: [['number', 'DESC']], offset: ctx.page.offset, limit: ctx.page.limit });
  return { item, rows, count };
}

/** A download link of the file's current version, or of `versionId`. */
export async function downloadLink(ctx: FilesContext, fileId: string, versionId?: string) {
  const { item } = await requireItem(ctx, fileId, 'read');
  if (item.kind !== 'file') throw new InvalidError(`${item.name} is a folder: download its files one by one`);
  const version = await ctx.db.versions.findOne({ where: { item_id: item.id, id: versionId ?? item.version_id! } });
  if (!version) throw new NotFoundError(`Version ${versionId} of ${item.name} not found`);
  const link = await ctx.storage.signedDownloadUrl(version.storage_key, { expiresInSeconds: ctx.settings.link_seconds, filename: item.name });
  return { file_id: item.id, version_id: version.id, name: item.name, size_bytes: bytes(version.size_bytes), content_type: version.content_type, url: link.url, method: link.method, expires_at: link.expires_at };
}

/** Makes an older version current again, as a new version sharing its bytes (Nextcloud and Drive keep history linear). */
export async function restoreVersion(ctx: FilesContext, fileId: string, versionId: string): Promise<{ item: Item; version: Version }> {
  const { item } = await requireItem(ctx, fileId, 'edit');
  if (item.kind !== 'file') throw new InvalidError(`${item.name} is a folder: folders have no versions`);
  const old = await ctx.db.versions.findOne({ where: { item_id: item.id, id: versionId } });
  if (!old) throw new NotFoundError(`Version ${versionId} of ${item.name} not found`);
  if (old.id === item.version_id) throw new ConflictError(`Version ${old.number} is already the current version of ${item.name}`);
  await ctx.db.items.findById(item.id, { lock: 'update' });
  await lockUsage(ctx);
  const size = bytes(old.size_bytes);
  await assertRoom(ctx, size, 'the restored version');
  const number = (await ctx.db.items.findById(item.id))!.version_number + 1;
  const version = await ctx.db.versions.create({ item_id: item.id, number, storage_key: old.storage_key, size_bytes: size, content_type: old.content_type, sha256: old.sha256, category: old.category, created_by: ctx.member.id });
  await ctx.db.items.update({ version_id: version.id, version_number: number, size_bytes: size, content_type: old.content_type, updated_by: ctx.member.id }, { where: { id: item.id } });
  await addUsage(ctx, item.owner_id, old.category, size, 1);
  await pruneVersions(ctx, item);
  const updated = (await ctx.db.items.findById(item.id))!;
  await indexFiles(ctx, [updated]);
  emit(ctx, 'core.files.version.created', { item_id: item.id, version_id: version.id, number, size_bytes: size, content_type: old.content_type, created_by: ctx.member.mrn, restored_from: old.id });
  return { item: updated, version };
}

/** The uploads still open of an owner (a transfer cancels them). */
export async function openUploadsOf(ctx: FilesContext, ownerId: string): Promise<Upload[]> {
  return ctx.db.uploads.findAll({ where: { [Op.or]: [{ owner_id: ownerId }, { created_by: ownerId }] } });
}
