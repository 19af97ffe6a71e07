import { ConflictError, NotFoundError, type SearchDocument } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Approval, LeaveType, Unit } from '../models/index.js';
import { hundredths, units } from './days.js';

/** What a create or an update of a leave type takes (amounts in the type's unit). */
export interface TypeInput {
  name?: string;
  unit?: Unit;
  paid?: boolean;
  needs_allocation?: boolean;
  allow_negative?: boolean;
  approval?: Approval;
  holidays_excluded?: boolean;
  carry_over_cap?: number | null;
  default_allocation?: number;
}

/** A leave type as answered. */
export function presentType(type: LeaveType) {
  return {
    id: type.id,
    name: type.name,
    unit: type.unit,
    paid: type.paid,
    needs_allocation: type.needs_allocation,
    allow_negative: type.allow_negative,
    approval: type.approval,
    holidays_excluded: type.holidays_excluded,
    carry_over_cap: type.carry_over_cap === null ? null : units(type.carry_over_cap),
    default_allocation: units(type.default_allocation),
    revision: type.revision,
    created_at: type.created_at,
    updated_at: type.updated_at,
  };
}

/** The type of the workspace; 404 otherwise. */
export async function requireType(ctx: AnyCtx, typeId: string, lock?: 'update'): Promise<LeaveType> {
  const type = await ctx.db.leaveTypes.findById(typeId, lock ? { lock } : {});
  if (!type) throw new NotFoundError(`Leave type ${typeId} not found`);
  return type;
}

/** Refuses a name another type has (case-insensitive). */
async function assertNameFree(ctx: AnyCtx, name: string, exceptId: string | null): Promise<void> {
  await ctx.lock(`type-name:${name.toLowerCase()}`);
  const all = await ctx.db.leaveTypes.findAll({});
  const clash = all.find((type) => type.name.toLowerCase() === name.toLowerCase() && type.id !== exceptId);
  if (clash) throw new ConflictError(`Leave type ${clash.id} is already named ${clash.name}`, { field: 'name' });
}

/** Every type by name. */
export function listTypes(ctx: AnyCtx): Promise<LeaveType[]> {
  return ctx.db.leaveTypes.findAll({ order: [['name', 'ASC'], ['id', 'ASC']] });
}

/** Adds a leave type. */
export async function createType(ctx: Ctx, input: TypeInput & { name: string; unit: Unit }): Promise<LeaveType> {
  const name = input.name.trim();
  await assertNameFree(ctx, name, null);
  const type = await ctx.db.leaveTypes.create({
    name,
    unit: input.unit,
    paid: input.paid ?? true,
    needs_allocation: input.needs_allocation ?? true,
    allow_negative: input.allow_negative ?? false,
    approval: input.approval ?? 'manager',
    holidays_excluded: input.holidays_excluded ?? true,
    carry_over_cap: input.carry_over_cap === undefined || input.carry_over_cap === null ? null : hundredths(input.carry_over_cap),
    default_allocation: hundredths(input.default_allocation ?? 0),
    revision: 1,
  });
  ctx.search.upsert(typeDocument(type));
  return type;
}

/** Changes the given fields; emits `type.updated` with what changed (nothing changed: nothing emitted). */
export async function updateType(ctx: Ctx, typeId: string, input: TypeInput): Promise<LeaveType> {
  const type = await requireType(ctx, typeId, 'update');
  const changes: Partial<LeaveType> = {};
  if (input.name !== undefined && input.name.trim() !== type.name) {
    await assertNameFree(ctx, input.name.trim(), type.id);
    changes.name = input.name.trim();
  }
  if (input.unit !== undefined && input.unit !== type.unit) {
    const used = (await ctx.db.requests.count({ where: { type_id: type.id } })) + (await ctx.db.allocations.count({ where: { type_id: type.id } }));
    if (used) throw new ConflictError(`Leave type ${type.id} has requests or allocations counted in ${type.unit}s: its unit cannot change`, { field: 'unit' });
    changes.unit = input.unit;
  }
  for (const key of ['paid', 'needs_allocation', 'allow_negative', 'approval', 'holidays_excluded'] as const) {
    if (input[key] !== undefined && input[key] !== type[key]) Object.assign(changes, { [key]: input[key] });
  }
  if (input.carry_over_cap !== undefined) {
    const cap = input.carry_over_cap === null ? null : hundredths(input.carry_over_cap);
    if (cap !== type.carry_over_cap) changes.carry_over_cap = cap;
  }
  if (input.default_allocation !== undefined && hundredths(input.default_allocation) !== type.default_allocation) changes.default_allocation = hundredths(input.default_allocation);
  const changed = Object.keys(changes);
  if (!changed.length) return type;
  await ctx.db.leaveTypes.update({ ...changes, revision: type.revision + 1 }, { where: { id: type.id } });
  const row = (await ctx.db.leaveTypes.findById(type.id))!;
  ctx.search.upsert(typeDocument(row));
  ctx.events.stage('core.leaves.type.updated', { type_id: row.id, name: row.name, unit: row.unit, changed_fields: changed, revision: row.revision, by: ctx.member.mrn });
  return row;
}

/** Deletes a type no request, allocation or ledger entry uses. */
export async function deleteType(ctx: Ctx, typeId: string) {
  const type = await requireType(ctx, typeId, 'update');
  const used = (await ctx.db.requests.count({ where: { type_id: type.id } })) + (await ctx.db.allocations.count({ where: { type_id: type.id } })) + (await ctx.db.ledger.count({ where: { type_id: type.id } }));
  if (used) throw new ConflictError(`Leave type ${type.id} (${type.name}) has requests, allocations or ledger entries; it cannot be deleted`);
  await ctx.db.leaveTypes.destroy({ where: { id: type.id } });
  ctx.search.remove('leave_type', type.id);
  return { id: type.id, deleted: true as const };
}

/** A leave type's search document. */
export function typeDocument(type: LeaveType): SearchDocument {
  return { type: 'leave_type', id: type.id, title: type.name, subtitle: `${type.unit === 'hour' ? 'Hours' : type.unit === 'half_day' ? 'Half days' : 'Days'} · ${type.paid ? 'paid' : 'unpaid'}`, url: `/types/${type.id}`, names: [type.name], details: [], filters: {} };
}
