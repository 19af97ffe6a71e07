import { Op } from '@wpk/sdk';
import type { AtsContext } from '../kit.js';
import { requireJob } from './jobs.js';

/**
 * Candidates ranked against the job's own text (title, location, description), nearest first:
 * PostgreSQL's full-text rank (`ts_rank`, English stemming) of each candidate's headline,
 * location and tags against the job's words, computed by the view `candidate_matches` inside
 * the database. Candidates sharing no word with the job are not listed; ties go by name.
 */
export async function listMatches(ctx: AtsContext, jobId: string) {
  await requireJob(ctx, jobId);
  const { rows, count } = await ctx.db.candidateMatches.findAndCountAll({
    where: { job_id: jobId }, order: [['score', 'DESC'], ['candidate_id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset,
  });
  const candidates = rows.length ? await ctx.db.candidates.findAll({ where: { id: { [Op.in]: rows.map((row) => row.candidate_id) } } }) : [];
  const byId = new Map(candidates.map((candidate) => [candidate.id, candidate]));
  const ranked = rows.map((row) => ({ row, candidate: byId.get(row.candidate_id)! }));
  ranked.sort((a, b) => b.row.score - a.row.score || a.candidate.name.localeCompare(b.candidate.name) || a.candidate.id.localeCompare(b.candidate.id));
  return {
    rows: ranked.map(({ row, candidate }) => ({ candidate_id: candidate.id, name: candidate.name, headline: candidate.headline, location: candidate.location, tags: candidate.tags, score: Math.round(row.score * 1e6) / 1e6 })),
    count,
  };
}
