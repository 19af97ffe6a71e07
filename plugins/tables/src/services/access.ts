/**
 * Who may do what on a base. A member's role is their own row on the base, else the base's
 * default role; the base's creator, and the workspace's owners and admins, are creators. A base
 * whose role for the caller is `none` does not exist for them (404, as another workspace's id).
 */
import { ForbiddenError, NotFoundError, type ContextMember } from '@wpk/sdk';
import type { AnyCtx } from '../kit.js';
import type { Base, Field, Models, Role, Table, TableRecord, View } from '../models/index.js';
import type { AppDb } from '@wpk/sdk';

export type Access = Role | 'none';
const RANK: Record<Access, number> = { none: 0, viewer: 1, editor: 2, creator: 3 };

/** What a role may do, in words (for 403s). */
const NEEDS: Record<Role, string> = { viewer: 'reading', editor: 'editing records', creator: 'changing tables, fields and shared views' };

/** The caller's role on a base. */
export async function roleOn(ctx: { member: ContextMember; db: AppDb<Models> }, base: Base): Promise<Access> {
  if (base.created_by === ctx.member.id || ctx.member.platform_role === 'owner' || ctx.member.platform_role === 'admin') return 'creator';
  const own = await ctx.db.baseRoles.findOne({ where: { base_id: base.id, member_id: ctx.member.id } });
  return (own?.role ?? base.default_role) as Access;
}

/** True when `role` is at least `need`. */
export function atLeast(role: Access, need: Role): boolean {
  return RANK[role] >= RANK[need];
}

type MemberCtx = AnyCtx & { member: ContextMember };

/** The base, when the caller's role on it is at least `need`: 404 when they have none, 403 when it is lower. */
export async function requireBase(ctx: MemberCtx, baseId: string, need: Role, lock?: 'update'): Promise<{ base: Base; role: Access }> {
  const base = await ctx.db.bases.findById(baseId, lock ? { lock } : {});
  if (!base) throw new NotFoundError(`Base ${baseId} not found`);
  const role = await roleOn(ctx, base);
  if (role === 'none') throw new NotFoundError(`Base ${baseId} not found`);
  if (!atLeast(role, need)) throw new ForbiddenError(`Your role on base ${base.name} is ${role}: ${NEEDS[need]} needs ${need}`);
  return { base, role };
}

/** The table, with its base, when the caller's role on the base is at least `need`. */
export async function requireTable(ctx: MemberCtx, tableId: string, need: Role, lock?: 'update'): Promise<{ table: Table; base: Base; role: Access }> {
  const table = await ctx.db.tables.findById(tableId, lock ? { lock } : {});
  if (!table) throw new NotFoundError(`Table ${tableId} not found`);
  const { base, role } = await requireBase(ctx, table.base_id, need).catch((error: unknown) => {
    if (error instanceof NotFoundError) throw new NotFoundError(`Table ${tableId} not found`);
    throw error;
  });
  return { table, base, role };
}

/** The field, with its table and base. */
export async function requireField(ctx: MemberCtx, fieldId: string, need: Role, lock?: 'update'): Promise<{ field: Field; table: Table; base: Base }> {
  const field = await ctx.db.fields.findById(fieldId, lock ? { lock } : {});
  if (!field) throw new NotFoundError(`Field ${fieldId} not found`);
  const found = await requireTable(ctx, field.table_id, need).catch((error: unknown) => {
    if (error instanceof NotFoundError) throw new NotFoundError(`Field ${fieldId} not found`);
    throw error;
  });
  return { field, ...found };
}

/** The record, with its table and base. */
export async function requireRecord(ctx: MemberCtx, recordId: string, need: Role, lock?: 'update'): Promise<{ record: TableRecord; table: Table; base: Base; role: Access }> {
  const record = await ctx.db.records.findById(recordId, lock ? { lock } : {});
  if (!record) throw new NotFoundError(`Record ${recordId} not found`);
  const found = await requireTable(ctx, record.table_id, need).catch((error: unknown) => {
    if (error instanceof NotFoundError) throw new NotFoundError(`Record ${recordId} not found`);
    throw error;
  });
  return { record, ...found };
}

/** The view, when the caller sees it (a personal view is its owner's alone) and may `need` on the base. */
export async function requireView(ctx: MemberCtx, viewId: string, need: Role, lock?: 'update'): Promise<{ view: View; table: Table; base: Base; role: Access }> {
  const view = await ctx.db.views.findById(viewId, lock ? { lock } : {});
  if (!view || (view.owner_id !== null && view.owner_id !== ctx.member.id)) throw new NotFoundError(`View ${viewId} not found`);
  const found = await requireTable(ctx, view.table_id, need).catch((error: unknown) => {
    if (error instanceof NotFoundError) throw new NotFoundError(`View ${viewId} not found`);
    throw error;
  });
  return { view, ...found };
}
