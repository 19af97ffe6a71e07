import { InvalidError, memberIdFromMrn, memberMrn, newId, Op } from '@wpk/sdk';
import type { Item } from '../models/index.js';
import { indexFiles } from '../search.js';
import type { FilesContext } from '../kit.js';
import { bytes } from './sizes.js';
import { emit } from './events.js';
import { named, suffixedName } from './names.js';
import { limitsOf, lockUsage } from './usage.js';

/** The member id of a member MRN the route checked (`Joi.memberMrn()`). */
function memberOfMrn(mrn: string): string {
  return memberIdFromMrn(mrn)!.toLowerCase();
}

/** `GET /admin/file-stats`: the quota and what uses it, by member and by type (largest first). */
export async function fileStats(ctx: FilesContext) {
  const limits = limitsOf(ctx);
  const rows = await ctx.db.usage.findAll({ order: [['member_id', 'ASC'], ['category', 'ASC']] });
  const byMember = new Map<string, { bytes: number; versions: number }>();
  const byType = new Map<string, { bytes: number; versions: number }>();
  let used = 0;
  for (const row of rows) {
    const size = bytes(row.bytes);
    if (size === 0 && row.versions === 0) continue;
    used += size;
    for (const [map, key] of [[byMember, row.member_id], [byType, row.category]] as const) {
      const entry = map.get(key) ?? { bytes: 0, versions: 0 };
      entry.bytes += size;
      entry.versions += row.versions;
      map.set(key, entry);
    }
  }
  const [files, folders, trashed] = await Promise.all([
    ctx.db.items.count({ where: { kind: 'file', trashed_at: null } }),
    ctx.db.items.count({ where: { kind: 'folder', trashed_at: null } }),
    ctx.db.items.count({ where: { trashed_at: { [Op.ne]: null } } }),
  ]);
  const largest = <K extends string>(map: Map<string, { bytes: number; versions: number }>, key: K) =>
    [...map].map(([name, entry]) => ({ [key]: name, ...entry }) as Record<K, string> & { bytes: number; versions: number }).sort((a, b) => b.bytes - a.bytes || (a[key] < b[key] ? -1 : 1));
  return {
    plan: limits.plan,
    quota_bytes: limits.quota_bytes,
    used_bytes: used,
    available_bytes: Math.max(0, limits.quota_bytes - used),
    max_file_bytes: limits.max_file_bytes,
    files,
    folders,
    trashed_items: trashed,
    by_member: largest(byMember, 'member_id').map((entry) => ({ member_id: entry.member_id, member_mrn: memberMrn(entry.member_id), bytes: entry.bytes, versions: entry.versions })),
    by_type: largest(byType, 'type'),
  };
}

/** `GET /admin/file-members/{member_mrn}/folders|files`: everything of that kind the member owns, the trash included, oldest first. */
export async function memberItems(ctx: FilesContext, mrn: string, kind: 'file' | 'folder') {
  const memberId = memberOfMrn(mrn);
  return ctx.db.items.findAndCountAll({ where: { owner_id: memberId, kind }, order: [['created_at', 'ASC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
}

export interface TransferResult {
  transfer_id: string | null;
  from_mrn: string;
  to_mrn: string;
  folders: number;
  files: number;
  renamed: Array<{ item_id: string; from_name: string; to_name: string }>;
}

/**
 * `POST /admin/file-transfers`: every file and folder of `from` (the trash included) becomes
 * `to`'s, in the request's one transaction. Root items keep their place at the root of `to`'s
 * space; one whose name `to` already uses there gets the suffix ` (2)`, ` (3)`, ... before its
 * extension (`Report.pdf` → `Report (2).pdf`, `Photos` → `Photos (2)`): nothing is merged or
 * replaced. Versions and shares follow their items (a share with `to` itself is dropped: the item
 * is now theirs); `from`'s open uploads are cancelled. Retried after a crash, it starts again
 * (nothing of a transaction that did not commit stays); retried after it committed, it finds
 * nothing left to move and answers zero counts, with no event.
 */
export async function transferFiles(ctx: FilesContext, input: { from_mrn: string; to_mrn: string }): Promise<TransferResult> {
  // The route checked both against the platform's member directory: from_mrn a member present or
  // removed (offboarding moves a leaver's files), to_mrn a member now (a newcomer at once).
  const fromId = memberOfMrn(input.from_mrn);
  const toId = memberOfMrn(input.to_mrn);
  if (fromId === toId) throw new InvalidError('from_mrn and to_mrn must name two different members');
  for (const id of [fromId, toId].sort()) await ctx.lock(`space:${id}`);
  await lockUsage(ctx);

  const result: TransferResult = { transfer_id: null, from_mrn: memberMrn(fromId), to_mrn: memberMrn(toId), folders: 0, files: 0, renamed: [] };
  const moving = await ctx.db.items.findAll({ where: { owner_id: fromId }, attributes: ['id', 'kind', 'name', 'parent_id', 'trashed_at'] });
  const uploads = await ctx.db.uploads.findAll({ where: { owner_id: fromId } });
  if (moving.length === 0 && uploads.length === 0) return result;

  const toNames = new Set((await ctx.db.items.findAll({ where: { owner_id: toId, parent_id: null, trashed_at: null }, attributes: ['name'] })).map((item) => item.name.toLowerCase()));
  const liveRoots = moving.filter((item) => item.parent_id === null && !item.trashed_at).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
  // Names of from's own roots stay claimed too, so a new name never collides in either space.
  const claimed = new Set(liveRoots.map((item) => item.name.toLowerCase()));
  for (const root of liveRoots) {
    if (!toNames.has(root.name.toLowerCase())) {
      toNames.add(root.name.toLowerCase());
      continue;
    }
    const name = suffixedName(root.name, root.kind, new Set([...toNames, ...claimed]));
    toNames.add(name.toLowerCase());
    claimed.add(name.toLowerCase());
    result.renamed.push({ item_id: root.id, from_name: root.name, to_name: name });
    // The new name first, while the item is still from's: the unique index holds at every step.
    await ctx.db.items.update(named(name), { where: { id: root.id } });
  }
  await ctx.db.items.update({ owner_id: toId }, { where: { owner_id: fromId } });
  const ids = moving.map((item) => item.id);
  if (ids.length) await ctx.db.shares.destroy({ where: { member_id: toId, item_id: { [Op.in]: ids } } });
  for (const upload of uploads) await ctx.storage.delete(upload.storage_key);
  if (uploads.length) await ctx.db.uploads.destroy({ where: { owner_id: fromId } });

  const fromUsage = await ctx.db.usage.findAll({ where: { member_id: fromId } });
  for (const row of fromUsage) {
    const mine = await ctx.db.usage.findOne({ where: { member_id: toId, category: row.category } });
    await ctx.db.usage.upsert({ member_id: toId, category: row.category, bytes: bytes(mine?.bytes) + bytes(row.bytes), versions: (mine?.versions ?? 0) + row.versions }, { conflictFields: ['member_id', 'category'] });
  }
  await ctx.db.usage.destroy({ where: { member_id: fromId } });

  result.folders = moving.filter((item) => item.kind === 'folder').length;
  result.files = moving.filter((item) => item.kind === 'file').length;
  const liveFiles: Item[] = ids.length ? await ctx.db.items.findAll({ where: { id: { [Op.in]: ids }, kind: 'file', trashed_at: null } }) : [];
  await indexFiles(ctx, liveFiles);
  if (moving.length) {
    result.transfer_id = newId();
    emit(ctx, 'core.files.transfer.completed', { transfer_id: result.transfer_id, from_mrn: result.from_mrn, to_mrn: result.to_mrn, folders: result.folders, files: result.files, renamed: result.renamed, transferred_by: ctx.member.mrn });
  }
  return result;
}
