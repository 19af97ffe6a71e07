import { ConflictError, formatMrn, InvalidError, likePattern, Op, type SearchDocument } from '@wpk/sdk';
import { resource, type GrowthBaseContext, type GrowthContext } from '../kit.js';
import type { Competency, Level, Profile } from '../models/index.js';

/** `mrn:growth:competency:{id}`: how other apps (recruiting's criteria) reference a competency. */
export const competencyMrn = (id: string): string => formatMrn('growth', 'competency', id);

/** What every competency event carries: enough for a copy kept by another app. */
const competencyFields = (row: Competency) => ({ competency_id: row.id, mrn: competencyMrn(row.id), name: row.name, levels: row.levels, revision: row.revision });

const by = (ctx: { member?: { mrn: string } | null }) => (ctx.member ? { by: ctx.member.mrn } : {});

export function competencyDocument(row: Competency): SearchDocument {
  return { type: 'competency', id: row.id, title: row.name, subtitle: `${row.levels.length} levels`, url: `/competencies/${row.id}`, names: [row.name], details: [row.description] };
}

/** Competencies: reads, search and the events of every write. */
export const competencies = resource({
  model: 'competencies',
  label: 'Competency',
  order: [['name', 'ASC'], ['id', 'ASC']],
  searchColumns: ['name', 'description'],
  search: { type: 'competency', document: competencyDocument },
  events: {
    created: (row, ctx) => ['core.growth.competency.created', { ...competencyFields(row), ...by(ctx as GrowthContext) }],
    updated: (row, changed, ctx) => ['core.growth.competency.updated', { ...competencyFields(row), changed_fields: changed.filter((field) => field !== 'revision'), ...by(ctx as GrowthContext) }],
    deleted: (row, ctx) => ['core.growth.competency.deleted', { ...competencyFields({ ...row, revision: row.revision + 1 }), ...by(ctx as GrowthContext) }],
  },
});

export const presentCompetency = (row: Competency) => ({ id: row.id, mrn: competencyMrn(row.id), name: row.name, description: row.description, levels: row.levels, revision: row.revision, created_at: row.created_at, updated_at: row.updated_at });

/** Levels numbered 1, 2, … in order: the input gives the descriptors. */
const numbered = (descriptors: string[]): Level[] => descriptors.map((descriptor, index) => ({ level: index + 1, descriptor: descriptor.trim() }));

async function assertNameFree(ctx: GrowthBaseContext, name: string, exceptId: string | null): Promise<void> {
  await ctx.lock(`competency-name:${name.toLowerCase()}`);
  const clash = await ctx.db.competencies.findOne({ where: { name: { [Op.iLike]: likePattern(name, 'exact') }, ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}) } });
  if (clash) throw new ConflictError(`Competency ${clash.id} is already named ${clash.name}`, { field: 'name' });
}

export interface CompetencyInput {
  name?: string;
  description?: string;
  levels?: string[];
}

export async function createCompetency(ctx: GrowthContext, input: CompetencyInput & { name: string; levels: string[] }): Promise<Competency> {
  const name = input.name.trim();
  await assertNameFree(ctx, name, null);
  return competencies.create(ctx, { name, description: input.description?.trim() ?? '', levels: numbered(input.levels), revision: 1 });
}

export async function updateCompetency(ctx: GrowthContext, id: string, input: CompetencyInput): Promise<Competency> {
  const row = await competencies.require(ctx, id, { lock: 'update' });
  const changes: Partial<Competency> = {};
  if (input.name !== undefined) {
    await assertNameFree(ctx, input.name.trim(), row.id);
    changes.name = input.name.trim();
  }
  if (input.description !== undefined) changes.description = input.description.trim();
  if (input.levels !== undefined) {
    const levels = numbered(input.levels);
    const expected = (await profilesNeeding(ctx, row.id)).find((hit) => hit.level > levels.length);
    if (expected) throw new ConflictError(`Profile ${expected.profile.id} (${expected.profile.name}) expects level ${expected.level} of this competency, which would have ${levels.length} levels`, { field: 'levels' });
    if (JSON.stringify(levels) !== JSON.stringify(row.levels)) changes.levels = levels;
  }
  const { row: updated } = await competencies.patch(ctx, row, changes, { touch: (before) => ({ revision: before.revision + 1 }) });
  return updated;
}

/** The profiles expecting a level of the competency. */
async function profilesNeeding(ctx: GrowthBaseContext, competencyId: string): Promise<Array<{ profile: Profile; level: number }>> {
  const found: Array<{ profile: Profile; level: number }> = [];
  for (const profile of await ctx.db.profiles.findAll({ where: {}, order: [['name', 'ASC']] })) {
    for (const expectation of profile.expectations) if (expectation.competency_id === competencyId) found.push({ profile, level: expectation.level });
  }
  return found;
}

/** Deletes a competency no profile expects (409 naming the profile otherwise). */
export async function deleteCompetency(ctx: GrowthContext, id: string) {
  await ctx.lock('profiles');
  const row = await competencies.require(ctx, id, { lock: 'update' });
  const [used] = await profilesNeeding(ctx, row.id);
  if (used) throw new ConflictError(`Profile ${used.profile.id} (${used.profile.name}) expects this competency; take it out of the profile first`);
  await competencies.remove(ctx, row);
  return { id: row.id, mrn: competencyMrn(row.id), deleted: true as const };
}

export const presentProfile = (row: Profile) => ({ id: row.id, name: row.name, description: row.description, expectations: row.expectations, created_at: row.created_at, updated_at: row.updated_at });

/** A role profile (a rung of a ladder): each competency named once, at a level it has. */
export async function createProfile(ctx: GrowthContext, input: { name: string; description?: string; expectations: Array<{ competency_id: string; level: number }> }): Promise<Profile> {
  await ctx.lock('profiles');
  const name = input.name.trim();
  const clash = await ctx.db.profiles.findOne({ where: { name: { [Op.iLike]: likePattern(name, 'exact') } } });
  if (clash) throw new ConflictError(`Profile ${clash.id} is already named ${clash.name}`, { field: 'name' });
  const seen = new Set<string>();
  for (const [index, expectation] of input.expectations.entries()) {
    const field = `expectations[${index}]`;
    if (seen.has(expectation.competency_id)) throw new InvalidError(`${field}.competency_id ${expectation.competency_id} is named twice`, { field });
    seen.add(expectation.competency_id);
    const competency = await ctx.db.competencies.findById(expectation.competency_id);
    if (!competency) throw new InvalidError(`${field}.competency_id ${expectation.competency_id} is not a competency of this workspace`, { field });
    if (expectation.level > competency.levels.length) throw new InvalidError(`${field}.level ${expectation.level}: ${competency.name} has ${competency.levels.length} levels`, { field });
  }
  return ctx.db.profiles.create({ name, description: input.description?.trim() ?? '', expectations: input.expectations });
}

export function listProfiles(ctx: GrowthContext) {
  return ctx.db.profiles.findAndCountAll({ where: {}, order: [['name', 'ASC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
}
