import { ConflictError, InvalidError, Op } from '@wpk/sdk';
import { resource, type WorkersBaseContext, type WorkersContext } from '../kit.js';
import type { Department } from '../models/index.js';
import { departmentDocument, departmentFields } from './present.js';
import { by, today } from './workers.js';

/** Departments of the workspace and the events of their writes (a move has its own event). */
export const departments = resource({
  model: 'departments',
  label: 'Department',
  order: [['name', 'ASC'], ['id', 'ASC']],
  searchColumns: ['name'],
  search: { type: 'department', document: departmentDocument },
  events: {
    created: (department, ctx) => ['core.workers.department.created', { ...departmentFields(department), by: by(ctx) }],
    deleted: (department, ctx) => ['core.workers.department.deleted', { ...departmentFields(department), revision: department.revision + 1, by: by(ctx) }],
  },
});

export interface DepartmentInput {
  name?: string;
  parent_id?: string | null;
  head_id?: string | null;
}

/** The lock every move of a department takes, so concurrent moves are judged one after the other. */
const TREE_LOCK = 'departments:tree';

/** How many workers are (currently) in each of the departments. */
export async function workerCounts(ctx: WorkersBaseContext, ids: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>(ids.map((id) => [id, 0]));
  if (ids.length === 0) return counts;
  const rows = await ctx.db.workers.findAll({ where: { department_id: { [Op.in]: ids } }, attributes: ['department_id'] });
  for (const row of rows) counts.set(row.department_id!, (counts.get(row.department_id!) ?? 0) + 1);
  return counts;
}

/** One page of departments by name; `parent_id` filters to the children of one (`top`: those without a parent). */
export function listDepartments(ctx: WorkersContext, filters: { q?: string; parent_id?: string }) {
  const where: Record<string, unknown> = {};
  if (filters.parent_id === 'top') where.parent_id = null;
  else if (filters.parent_id) where.parent_id = filters.parent_id;
  return departments.list(ctx, { q: filters.q, where });
}

/** A worker named as a department's head; 400 naming the field otherwise. */
async function assertHead(ctx: WorkersBaseContext, headId: string): Promise<void> {
  if (!(await ctx.db.workers.findById(headId))) throw new InvalidError(`head_id ${headId} is not a worker of this workspace`, { field: 'head_id' });
}

/**
 * Refuses putting `departmentId` under `parentId` when the parent is the department itself or
 * lies below it. Callers hold TREE_LOCK, taken before the tree is read.
 */
async function assertParent(ctx: WorkersBaseContext, departmentId: string | null, parentId: string): Promise<void> {
  const parent = await ctx.db.departments.findById(parentId);
  if (!parent) throw new InvalidError(`parent_id ${parentId} is not a department of this workspace`, { field: 'parent_id' });
  if (!departmentId) return;
  if (parentId === departmentId) throw new ConflictError(`Department ${departmentId} cannot be its own parent`, { field: 'parent_id' });
  const below = await ctx.db.departments.descendants({ from: [departmentId], parent: 'parent_id' });
  if (below.some((row) => row.id === parentId)) throw new ConflictError(`Moving department ${departmentId} under ${parent.name} (${parentId}) would make a cycle: ${parent.name} is inside it`, { field: 'parent_id' });
}

/** Creates a department. Emits `department.created`. */
export async function createDepartment(ctx: WorkersContext, input: DepartmentInput & { name: string }): Promise<Department> {
  if (input.parent_id) {
    await ctx.lock(TREE_LOCK);
    await assertParent(ctx, null, input.parent_id);
  }
  if (input.head_id) await assertHead(ctx, input.head_id);
  return departments.create(ctx, { name: input.name.trim(), parent_id: input.parent_id ?? null, head_id: input.head_id ?? null, revision: 1 });
}

/**
 * Renames a department, changes its head or moves it (`parent_id`; `null`: to the top). A move
 * that would make a cycle is 409, also when two moves race: every move takes the tree's lock
 * before reading the tree. Emits `department.updated` (name, head) and `department.moved`.
 */
export async function updateDepartment(ctx: WorkersContext, departmentId: string, input: DepartmentInput): Promise<Department> {
  const moving = input.parent_id !== undefined;
  if (moving) await ctx.lock(TREE_LOCK);
  const department = await departments.require(ctx, departmentId, { lock: 'update' });
  if (input.parent_id) await assertParent(ctx, department.id, input.parent_id);
  if (input.head_id) await assertHead(ctx, input.head_id);
  const next: Partial<Department> = {};
  if (input.name !== undefined && input.name.trim() !== department.name) next.name = input.name.trim();
  if (input.head_id !== undefined && input.head_id !== department.head_id) next.head_id = input.head_id;
  const moved = moving && input.parent_id !== department.parent_id;
  if (moved) next.parent_id = input.parent_id ?? null;
  if (Object.keys(next).length === 0) return department;
  await ctx.db.departments.update({ ...next, revision: department.revision + 1 }, { where: { id: department.id } });
  const row = (await ctx.db.departments.findById(department.id))!;
  ctx.search.upsert(departmentDocument(row));
  const changed = Object.keys(next).filter((field) => field !== 'parent_id');
  if (changed.length) ctx.events.stage('core.workers.department.updated', { ...departmentFields(row), changed_fields: changed, by: by(ctx) });
  if (moved) ctx.events.stage('core.workers.department.moved', { ...departmentFields(row), from_parent_id: department.parent_id, by: by(ctx) });
  return row;
}

/** Deletes a department without workers (now or in a future-dated change) and without sub-departments; 409 otherwise. Emits `department.deleted`. */
export async function deleteDepartment(ctx: WorkersContext, departmentId: string) {
  await ctx.lock(TREE_LOCK);
  const department = await departments.require(ctx, departmentId, { lock: 'update' });
  const staff = await ctx.db.workers.count({ where: { department_id: department.id } });
  if (staff) throw new ConflictError(`Department ${department.id} (${department.name}) has ${staff} worker(s); move them first`);
  const dated = await ctx.db.workerHistory.count({ where: { department_id: department.id, effective_on: { [Op.gt]: today(ctx) } } });
  if (dated) throw new ConflictError(`Department ${department.id} (${department.name}) is named in ${dated} future-dated change(s) of workers; change those first`);
  const templates = await ctx.db.checklistTemplates.count({ where: { department_id: department.id } });
  if (templates) throw new ConflictError(`Department ${department.id} (${department.name}) has ${templates} checklist template(s); change or delete them first`);
  const children = await ctx.db.departments.count({ where: { parent_id: department.id } });
  if (children) throw new ConflictError(`Department ${department.id} (${department.name}) has ${children} sub-department(s); move or delete them first`);
  await departments.remove(ctx, department);
  return { id: department.id, mrn: departmentFields(department).mrn, deleted: true as const };
}
