import { InvalidError, isUuid, memberMrn, NotFoundError } from '@wpk/sdk';
import type { Share, ShareRole } from '../models/index.js';
import { indexTree } from '../search.js';
import { requireItem } from './access.js';
import type { FilesContext } from '../kit.js';
import { emit } from './events.js';

/** The members an item is shared with (its owner may see them; so may every member it is shared with). */
export async function listShares(ctx: FilesContext, id: string) {
  const { item } = await requireItem(ctx, id, 'read');
  const { rows, count } = await ctx.db.shares.findAndCountAll({ where: { item_id: item.id }, order: [['created_at', 'ASC'], ['member_id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
  return { item, rows, count };
}

/**
 * Shares an item with a member (`read` or `edit`), or changes their role. Only the owner shares.
 * The route checked the member is one of the workspace now (`Joi.memberId()` in the path).
 */
export async function putShare(ctx: FilesContext, id: string, given: string, role: ShareRole): Promise<{ share: Share; created: boolean }> {
  const memberId = given.toLowerCase();
  const { item } = await requireItem(ctx, id, 'owner');
  if (memberId === item.owner_id) throw new InvalidError(`member_id: ${item.name} is already theirs`);
  const existing = await ctx.db.shares.findOne({ where: { item_id: item.id, member_id: memberId } });
  if (existing?.role === role) return { share: existing, created: false };
  const share = await ctx.db.shares.upsert({ item_id: item.id, member_id: memberId, role, shared_by: ctx.member.id }, { conflictFields: ['item_id', 'member_id'] });
  await indexTree(ctx, item);
  emit(ctx, existing ? 'core.files.share.updated' : 'core.files.share.created', { item_id: item.id, member_mrn: memberMrn(memberId), role, shared_by: ctx.member.mrn });
  return { share, created: !existing };
}

/** Stops sharing an item with a member: its owner may, and the member may leave a share. */
export async function deleteShare(ctx: FilesContext, id: string, memberId: string): Promise<{ file_id: string; member_id: string; deleted: true }> {
  const { item, access } = await requireItem(ctx, id, 'read');
  if (access !== 'owner' && memberId !== ctx.member.id) throw new NotFoundError(`${item.name} is not shared with member ${memberId} by you`);
  const share = isUuid(memberId) ? await ctx.db.shares.findOne({ where: { item_id: item.id, member_id: memberId } }) : null;
  if (!share) throw new NotFoundError(`${item.name} is not shared with member ${memberId}`);
  await ctx.db.shares.destroy({ where: { item_id: item.id, member_id: memberId } });
  await indexTree(ctx, item);
  emit(ctx, 'core.files.share.deleted', { item_id: item.id, member_mrn: memberMrn(memberId), deleted_by: ctx.member.mrn });
  return { file_id: item.id, member_id: memberId, deleted: true };
}
