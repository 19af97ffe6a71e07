/** Members' own roles on a base (creators grant them); they override the base's default role. */
import { NotFoundError } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { BaseRole, Role } from '../models/index.js';
import { requireBase } from './access.js';

/** A role as answered. */
export function presentRole(row: BaseRole) {
  return { base_id: row.base_id, member_id: row.member_id, role: row.role, created_at: row.created_at, updated_at: row.updated_at };
}

/** The members' own roles on a base (any role may see who else holds one). */
export async function listRoles(ctx: Ctx, baseId: string) {
  const { base } = await requireBase(ctx, baseId, 'viewer');
  return ctx.db.baseRoles.findAll({ where: { base_id: base.id }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
}

/** Gives a member a role on a base, or changes it (creators); the member must be of the workspace. */
export async function setRole(ctx: Ctx, baseId: string, memberId: string, role: Role) {
  const { base } = await requireBase(ctx, baseId, 'creator', 'update');
  await ctx.members.require([memberId], 'member_id');
  const id = memberId.toLowerCase();
  const existing = await ctx.db.baseRoles.findOne({ where: { base_id: base.id, member_id: id }, lock: 'update' });
  if (existing) {
    if (existing.role === role) return existing;
    await ctx.db.baseRoles.update({ role }, { where: { id: existing.id } });
    return { ...existing, role, updated_at: ctx.now() };
  }
  return ctx.db.baseRoles.create({ base_id: base.id, member_id: id, role });
}

/** Takes a member's own role away: the base's default role applies to them again (creators). */
export async function removeRole(ctx: Ctx, baseId: string, memberId: string) {
  const { base } = await requireBase(ctx, baseId, 'creator', 'update');
  const existing = await ctx.db.baseRoles.findOne({ where: { base_id: base.id, member_id: memberId.toLowerCase() } });
  if (!existing) throw new NotFoundError(`Member ${memberId} has no role of their own on base ${base.name}`);
  await ctx.db.baseRoles.destroy({ where: { id: existing.id } });
  return { base_id: base.id, member_id: existing.member_id, deleted: true as const };
}
