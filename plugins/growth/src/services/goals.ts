import { ConflictError, formatMrn, InvalidError, type SearchDocument } from '@wpk/sdk';
import jsonata from 'jsonata';
import { resource, type GrowthBaseContext, type GrowthContext } from '../kit.js';
import type { Aggregate, Goal, GoalStatus, KeyResult, KeySource, OwnerType } from '../models/index.js';

/** The catalog actions a key result may be fed by: those the app subscribes to for that purpose. */
export const FEEDING_ACTIONS = ['core.tasks.task.completed', 'core.ats.application.hired'] as const;

export const goalMrn = (id: string): string => formatMrn('growth', 'goal', id);

/** How far a key result is, from 0 to 1 (a target equal to the start counts as reached once current gets there). */
export function keyProgress(kr: Pick<KeyResult, 'start_value' | 'target_value' | 'current_value'>): number {
  const span = kr.target_value - kr.start_value;
  if (span === 0) return kr.current_value === kr.target_value ? 1 : 0;
  return Math.min(1, Math.max(0, (kr.current_value - kr.start_value) / span));
}

/** A goal's progress: the mean of its key results', rounded to a whole percent (0 without any). */
export const goalProgress = (krs: KeyResult[]): number => (krs.length ? Math.round((krs.reduce((sum, kr) => sum + keyProgress(kr), 0) / krs.length) * 100) : 0);

function goalFields(goal: Goal, progress: number) {
  return { goal_id: goal.id, mrn: goalMrn(goal.id), title: goal.title, owner_type: goal.owner_type, ...(goal.owner_id ? { owner_id: goal.owner_id } : {}), ...(goal.parent_id ? { parent_id: goal.parent_id } : {}), status: goal.status, progress, revision: goal.revision };
}

export function goalDocument(goal: Goal): SearchDocument {
  return { type: 'goal', id: goal.id, badge: goal.status, title: goal.title, subtitle: goal.owner_type, url: `/goals/${goal.id}`, names: [goal.title], details: [goal.description] };
}

/** Goals: reads and the search index (events are staged by the services, which know the progress). */
export const goals = resource({ model: 'goals', label: 'Goal', order: [['title', 'ASC'], ['id', 'ASC']], searchColumns: ['title', 'description'], search: { type: 'goal', document: goalDocument } });

export const keyResultsOf = (ctx: GrowthBaseContext, goalId: string) => ctx.db.keyResults.findAll({ where: { goal_id: goalId }, order: [['position', 'ASC']] });

const presentKeyResult = (kr: KeyResult) => ({
  id: kr.id,
  title: kr.title,
  start: kr.start_value,
  target: kr.target_value,
  current: kr.current_value,
  unit: kr.unit,
  progress: Math.round(keyProgress(kr) * 100),
  source: kr.source,
});

/** A goal as the routes answer it, with its key results. */
export async function presentGoal(ctx: GrowthBaseContext, goal: Goal) {
  const krs = await keyResultsOf(ctx, goal.id);
  return {
    id: goal.id,
    mrn: goalMrn(goal.id),
    title: goal.title,
    description: goal.description,
    owner_type: goal.owner_type,
    owner_id: goal.owner_id,
    parent_id: goal.parent_id,
    period_start: goal.period_start,
    period_end: goal.period_end,
    status: goal.status,
    progress: goalProgress(krs),
    key_results: krs.map(presentKeyResult),
    revision: goal.revision,
    created_at: goal.created_at,
    updated_at: goal.updated_at,
  };
}

export interface KeyResultInput {
  id?: string;
  title: string;
  start?: number;
  target: number;
  current?: number;
  unit?: string;
  source?: { action: string; filter?: string | null; aggregate?: Aggregate; field?: string | null } | null;
}

export interface GoalInput {
  title?: string;
  description?: string;
  owner_type?: OwnerType;
  owner_id?: string | null;
  parent_id?: string | null;
  period_start?: string | null;
  period_end?: string | null;
  status?: GoalStatus;
  key_results?: KeyResultInput[];
}

/** A source as stored, checked: a feeding action, a filter JSONata can parse, a field for a sum. */
function checkSource(source: NonNullable<KeyResultInput['source']>, field: string): KeySource {
  if (!(FEEDING_ACTIONS as readonly string[]).includes(source.action)) throw new InvalidError(`${field}.action must be one of ${FEEDING_ACTIONS.join(', ')}`, { field });
  const filter = source.filter?.trim() || null;
  if (filter) {
    try {
      jsonata(filter);
    } catch (error) {
      throw new InvalidError(`${field}.filter is not a JSONata expression: ${(error as Error).message}`, { field });
    }
  }
  const aggregate = source.aggregate ?? 'count';
  const sumField = source.field?.trim() || null;
  if (aggregate === 'sum' && !sumField) throw new InvalidError(`${field}.field names the payload field a sum adds up`, { field });
  if (aggregate === 'count' && sumField) throw new InvalidError(`${field}.field applies to a sum only`, { field });
  return { action: source.action, filter, aggregate, field: sumField };
}

/** Refuses an owner that is not one: a member of the workspace, a department of the copy, or none for the company. */
async function checkOwner(ctx: GrowthBaseContext, type: OwnerType, id: string | null | undefined): Promise<string | null> {
  if (type === 'company') {
    if (id) throw new InvalidError('owner_id must be empty for a company goal', { field: 'owner_id' });
    return null;
  }
  if (!id) throw new InvalidError(`owner_id is required for a ${type} goal`, { field: 'owner_id' });
  if (type === 'member') await ctx.members.require(id, 'owner_id');
  else if (!(await ctx.db.departments.findById(id))) throw new InvalidError(`owner_id ${id} is not a department of this workspace`, { field: 'owner_id' });
  return id.toLowerCase();
}

/** Refuses a parent that is not a goal, or one that would make a loop of alignments. */
async function checkParent(ctx: GrowthBaseContext, goalId: string | null, parentId: string): Promise<void> {
  if (!(await ctx.db.goals.findById(parentId))) throw new InvalidError(`parent_id ${parentId} is not a goal of this workspace`, { field: 'parent_id' });
  if (!goalId) return;
  if (parentId === goalId) throw new ConflictError(`Goal ${goalId} cannot be aligned to itself`, { field: 'parent_id' });
  const below = await ctx.db.goals.descendants({ from: [goalId], parent: 'parent_id' });
  if (below.some((row) => row.id === parentId)) throw new ConflictError(`Aligning goal ${goalId} to ${parentId} would make a loop: ${parentId} is aligned below it`, { field: 'parent_id' });
}

function checkPeriod(start: string | null, end: string | null): void {
  if ((start === null) !== (end === null)) throw new InvalidError('period_start and period_end go together (both, or neither for a goal outside periods)', { field: start === null ? 'period_start' : 'period_end' });
  if (start && end && end < start) throw new InvalidError(`period_end ${end} is before period_start ${start}`, { field: 'period_end' });
}

/** Writes the key results of a goal: those with an id are updated, new ones added, missing ones removed. */
async function writeKeyResults(ctx: GrowthBaseContext, goalId: string, inputs: KeyResultInput[]): Promise<void> {
  const existing = new Map((await keyResultsOf(ctx, goalId)).map((kr) => [kr.id, kr]));
  const kept = new Set<string>();
  for (const [index, input] of inputs.entries()) {
    const field = `key_results[${index}]`;
    const source = input.source ? checkSource(input.source, `${field}.source`) : null;
    const before = input.id ? existing.get(input.id) : undefined;
    if (input.id && !before) throw new InvalidError(`${field}.id ${input.id} is not a key result of this goal`, { field: `${field}.id` });
    if (input.id) kept.add(input.id);
    const start = input.start ?? before?.start_value ?? 0;
    const values = { position: index, title: input.title.trim(), start_value: start, target_value: input.target, current_value: input.current ?? before?.current_value ?? start, unit: input.unit?.trim() ?? before?.unit ?? '', source };
    if (before) await ctx.db.keyResults.update(values, { where: { id: before.id } });
    else await ctx.db.keyResults.create({ goal_id: goalId, ...values });
  }
  for (const id of existing.keys()) if (!kept.has(id)) await ctx.db.keyResults.destroy({ where: { id } });
}

/** Stages `goal.updated` (and `goal.completed` when it just completed) with the goal as it is now. */
async function stageGoalEvents(ctx: GrowthBaseContext & { member?: { mrn: string } | null }, goal: Goal, changed: string[], completedNow: boolean): Promise<void> {
  const progress = goalProgress(await keyResultsOf(ctx, goal.id));
  const by = ctx.member ? { by: ctx.member.mrn } : {};
  ctx.events.stage('core.growth.goal.updated', { ...goalFields(goal, progress), changed_fields: changed, ...by });
  if (completedNow) ctx.events.stage('core.growth.goal.completed', { ...goalFields(goal, progress), ...by });
}

export async function createGoal(ctx: GrowthContext, input: GoalInput & { title: string; owner_type: OwnerType }): Promise<Goal> {
  const ownerId = await checkOwner(ctx, input.owner_type, input.owner_id);
  if (input.parent_id) await checkParent(ctx, null, input.parent_id);
  checkPeriod(input.period_start ?? null, input.period_end ?? null);
  const goal = await goals.create(ctx, {
    title: input.title.trim(),
    description: input.description?.trim() ?? '',
    owner_type: input.owner_type,
    owner_id: ownerId,
    parent_id: input.parent_id ?? null,
    period_start: input.period_start ?? null,
    period_end: input.period_end ?? null,
    status: 'active',
    created_by: ctx.member.id,
    revision: 1,
  });
  await writeKeyResults(ctx, goal.id, input.key_results ?? []);
  ctx.events.stage('core.growth.goal.created', { ...goalFields(goal, goalProgress(await keyResultsOf(ctx, goal.id))), by: ctx.member.mrn });
  return goal;
}

export async function updateGoal(ctx: GrowthContext, goalId: string, input: GoalInput): Promise<Goal> {
  const goal = await goals.require(ctx, goalId, { lock: 'update' });
  const changes: Partial<Goal> = {};
  if (input.title !== undefined) changes.title = input.title.trim();
  if (input.description !== undefined) changes.description = input.description.trim();
  if (input.owner_type !== undefined || input.owner_id !== undefined) {
    const type = input.owner_type ?? goal.owner_type;
    changes.owner_type = type;
    changes.owner_id = await checkOwner(ctx, type, input.owner_id === undefined ? goal.owner_id : input.owner_id);
  }
  if (input.parent_id !== undefined) {
    if (input.parent_id) {
      await ctx.lock('goal-alignment');
      await checkParent(ctx, goal.id, input.parent_id);
    }
    changes.parent_id = input.parent_id;
  }
  if (input.period_start !== undefined) changes.period_start = input.period_start;
  if (input.period_end !== undefined) changes.period_end = input.period_end;
  checkPeriod(changes.period_start === undefined ? goal.period_start : changes.period_start, changes.period_end === undefined ? goal.period_end : changes.period_end);
  if (input.status !== undefined) changes.status = input.status;
  const before = input.key_results ? JSON.stringify((await keyResultsOf(ctx, goal.id)).map(presentKeyResult)) : '';
  if (input.key_results) await writeKeyResults(ctx, goal.id, input.key_results);
  const krChanged = input.key_results ? JSON.stringify((await keyResultsOf(ctx, goal.id)).map(presentKeyResult)) !== before : false;
  const { row, changed } = await goals.patch(ctx, goal, changes, { touch: (old) => ({ revision: old.revision + 1 }) });
  let names = changed.filter((name) => name !== 'revision' && name !== 'updated_at');
  if (krChanged) {
    names = [...names, 'key_results'];
    if (!changed.includes('revision')) {
      await ctx.db.goals.update({ revision: goal.revision + 1 }, { where: { id: goal.id } });
      row.revision = goal.revision + 1;
    }
  }
  if (names.length) await stageGoalEvents(ctx, row, names, goal.status !== 'completed' && row.status === 'completed');
  return row;
}

export async function deleteGoal(ctx: GrowthContext, goalId: string) {
  const goal = await goals.require(ctx, goalId, { lock: 'update' });
  const aligned = await ctx.db.goals.count({ where: { parent_id: goal.id } });
  if (aligned) throw new ConflictError(`Goal ${goal.id} has ${aligned} goal(s) aligned to it; align them elsewhere first`);
  await goals.remove(ctx, goal);
  return { id: goal.id, mrn: goalMrn(goal.id), deleted: true as const };
}

export function listGoals(ctx: GrowthContext, filters: { q?: string; owner_type?: OwnerType; owner_id?: string; parent_id?: string; status?: GoalStatus }) {
  const where: Record<string, unknown> = {};
  if (filters.owner_type) where.owner_type = filters.owner_type;
  if (filters.owner_id) where.owner_id = filters.owner_id.toLowerCase();
  if (filters.parent_id) where.parent_id = filters.parent_id;
  if (filters.status) where.status = filters.status;
  return goals.list(ctx, { q: filters.q, where });
}

/** A manual check-in: the key result's current value becomes `value`; refused on an event-fed one. */
export async function checkIn(ctx: GrowthContext, goalId: string, input: { key_result_id: string; value: number; note?: string }): Promise<Goal> {
  const goal = await goals.require(ctx, goalId, { lock: 'update' });
  if (goal.status !== 'active') throw new ConflictError(`Goal ${goal.id} is ${goal.status}: check-ins go to active goals`);
  const kr = await ctx.db.keyResults.findOne({ where: { id: input.key_result_id, goal_id: goal.id } });
  if (!kr) throw new InvalidError(`key_result_id ${input.key_result_id} is not a key result of this goal`, { field: 'key_result_id' });
  if (kr.source) throw new ConflictError(`Key result ${kr.id} is fed by ${kr.source.action} events; it takes no manual check-in`, { field: 'key_result_id' });
  await ctx.db.checkIns.create({ goal_id: goal.id, key_result_id: kr.id, value: input.value, note: input.note?.trim() ?? '', member_id: ctx.member.id, delivery_id: null });
  await ctx.db.keyResults.update({ current_value: input.value }, { where: { id: kr.id } });
  await ctx.db.goals.update({ revision: goal.revision + 1 }, { where: { id: goal.id } });
  const row = (await ctx.db.goals.findById(goal.id))!;
  await stageGoalEvents(ctx, row, ['key_results'], false);
  return row;
}

/** Whether a payload passes a key result's filter (no filter: every payload does). */
async function passes(source: KeySource, payload: Record<string, unknown>): Promise<boolean> {
  if (!source.filter) return true;
  return (await jsonata(source.filter).evaluate(payload)) === true;
}

/**
 * A delivery of a feeding action: every event-fed key result of an active goal bound to the
 * action whose filter the payload passes moves by one (count) or by the payload's field (sum),
 * once per delivery id: the check-in row of (key result, delivery) is written first, and a
 * second delivery with the same id finds it and changes nothing. Emits `goal.updated` once per
 * goal moved.
 */
export async function feedKeyResults(ctx: GrowthBaseContext, action: string, payload: Record<string, unknown>, deliveryId: string): Promise<number> {
  const fed = (await ctx.db.keyResults.findAll({ where: {}, order: [['goal_id', 'ASC'], ['position', 'ASC']] })).filter((kr) => kr.source?.action === action);
  const moved = new Set<string>();
  for (const kr of fed) {
    const source = kr.source!;
    if (!(await passes(source, payload))) continue;
    const amount = source.aggregate === 'count' ? 1 : Number(payload[source.field!]);
    if (!Number.isFinite(amount)) {
      ctx.log.warn({ action, delivery: deliveryId, key_result: kr.id }, `payload field ${source.field} is not a number: not added`);
      continue;
    }
    await ctx.lock(`key-result:${kr.id}`);
    const goal = await ctx.db.goals.findById(kr.goal_id);
    if (!goal || goal.status !== 'active') continue;
    if (await ctx.db.checkIns.findOne({ where: { key_result_id: kr.id, delivery_id: deliveryId } })) continue;
    const current = (await ctx.db.keyResults.findById(kr.id))!.current_value + amount;
    await ctx.db.checkIns.create({ goal_id: kr.goal_id, key_result_id: kr.id, value: current, note: `${action}`, member_id: null, delivery_id: deliveryId });
    await ctx.db.keyResults.update({ current_value: current }, { where: { id: kr.id } });
    moved.add(kr.goal_id);
  }
  for (const goalId of moved) {
    const goal = (await ctx.db.goals.findById(goalId))!;
    await ctx.db.goals.update({ revision: goal.revision + 1 }, { where: { id: goalId } });
    await stageGoalEvents(ctx, { ...goal, revision: goal.revision + 1 }, ['key_results'], false);
  }
  return moved.size;
}
