import { InvalidError } from '@wpk/sdk';
import type { AtsBaseContext } from '../kit.js';
import type { Criterion } from '../models/index.js';

/** What the `core.growth.competency.*` payloads carry that the copy keeps. */
export interface CompetencyPayload {
  competency_id: string;
  name: string;
  revision: number;
}

/**
 * Keeps the copy of one competency from a `core.growth.competency.*` payload: the highest
 * revision wins, so a late or repeated delivery changes nothing; a deletion keeps a tombstone
 * (a later delivery of a lower revision cannot restore it). Deliveries for one competency take
 * turns (a lock). Answers whether it changed the copy.
 */
export async function keepCompetency(ctx: AtsBaseContext, payload: CompetencyPayload, deleted: boolean): Promise<boolean> {
  const id = payload.competency_id.toLowerCase();
  await ctx.lock(`competency:${id}`);
  const copy = await ctx.db.competencies.findById(id);
  if (copy && copy.revision >= payload.revision) return false;
  const values = { name: payload.name.slice(0, 200), revision: payload.revision, deleted };
  if (copy) await ctx.db.competencies.update(values, { where: { id } });
  else await ctx.db.competencies.create({ id, ...values });
  return true;
}

const COMPETENCY_MRN = /^mrn:growth:competency:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * Refuses a criterion whose `competency_mrn` is not a Growth competency MRN or names one the
 * copy does not know (never created in this workspace, or deleted): 400 naming the criterion.
 */
export async function checkCriteria(ctx: AtsBaseContext, criteria: Criterion[]): Promise<void> {
  for (const [index, criterion] of criteria.entries()) {
    if (criterion.competency_mrn === undefined) continue;
    const field = `criteria[${index}].competency_mrn`;
    const match = COMPETENCY_MRN.exec(criterion.competency_mrn);
    if (!match) throw new InvalidError(`${field} ${criterion.competency_mrn} is not a competency MRN (mrn:growth:competency:{id})`, { field });
    const copy = await ctx.db.competencies.findById(match[1].toLowerCase());
    if (!copy || copy.deleted) throw new InvalidError(`${field} ${criterion.competency_mrn} is not a competency of this workspace${copy ? ` (${copy.name} was deleted)` : ''}`, { field });
  }
}
