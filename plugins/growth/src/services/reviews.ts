import { ConflictError, ForbiddenError, formatMrn, InvalidError, NotFoundError, Op } from '@wpk/sdk';
import type { GrowthBaseContext, GrowthContext } from '../kit.js';
import type { Cycle, Nomination, Person, Review, Weights } from '../models/index.js';
import { personOfMember, reportsOf } from './copies.js';
import { cycleMachine } from './machine.js';

/** Holders of this key see every review (HR). */
export const READ_ALL = 'growth.all_reviews.read';

const by = (ctx: GrowthContext) => ({ by: ctx.member.mrn });

/** Refuses weights that do not sum to 100. */
function checkWeights(weights: Weights): Weights {
  const sum = weights.self + weights.peer + weights.manager;
  if (sum !== 100) throw new InvalidError(`weights must sum to 100 (self ${weights.self} + peer ${weights.peer} + manager ${weights.manager} = ${sum})`, { field: 'weights' });
  return weights;
}

export const presentCycle = (cycle: Cycle) => ({ id: cycle.id, name: cycle.name, status: cycle.status, weights: cycle.weights, revision: cycle.revision, created_at: cycle.created_at, updated_at: cycle.updated_at });

export function listCycles(ctx: GrowthContext, status?: string) {
  return ctx.db.cycles.findAndCountAll({ where: status ? { status } : {}, order: [['created_at', 'DESC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
}

export async function requireCycle(ctx: GrowthBaseContext, id: string, lock = false): Promise<Cycle> {
  const cycle = await ctx.db.cycles.findById(id, lock ? { lock: 'update' } : {});
  if (!cycle) throw new NotFoundError(`Cycle ${id} not found`);
  return cycle;
}

/** A cycle in draft, weighted as given or by the settings' default weights. */
export function createCycle(ctx: GrowthContext, input: { name: string; weights?: Weights }): Promise<Cycle> {
  return ctx.db.cycles.create({ name: input.name.trim(), status: cycleMachine.initial, weights: checkWeights(input.weights ?? ctx.settings.default_weights), revision: 1 });
}

/** The final score of a review: the calibrated score if given, else the weighted mean of the parts given (weights of missing parts spread over the others). */
export function finalScore(review: Review, peerScores: number[], weights: Weights): number | null {
  if (review.calibrated_score !== null) return review.calibrated_score;
  const parts: Array<[number, number]> = [];
  if (review.self_score !== null) parts.push([review.self_score, weights.self]);
  if (peerScores.length) parts.push([peerScores.reduce((a, b) => a + b, 0) / peerScores.length, weights.peer]);
  if (review.manager_score !== null) parts.push([review.manager_score, weights.manager]);
  const weight = parts.reduce((sum, [, w]) => sum + w, 0);
  if (!weight) return null;
  return Math.round((parts.reduce((sum, [score, w]) => sum + score * w, 0) / weight) * 100) / 100;
}

const submittedPeerScores = (nominations: Nomination[]) => nominations.filter((n) => n.status === 'approved' && n.score !== null).map((n) => n.score!);

/**
 * Renames a cycle, changes its weights (in draft only) or moves it one step (`status`).
 * Opening creates a review for every worker of the copy not terminated (their manager then);
 * releasing writes every final score and emits `review.released` for each.
 */
export async function updateCycle(ctx: GrowthContext, id: string, input: { name?: string; weights?: Weights; status?: string }): Promise<Cycle> {
  const cycle = await requireCycle(ctx, id, true);
  const changes: Partial<Cycle> = {};
  if (input.name !== undefined) changes.name = input.name.trim();
  if (input.weights !== undefined) {
    if (!['draft', 'self_review', 'peer_review', 'manager_review', 'calibration'].includes(cycle.status)) throw new ConflictError(`The weights of a ${cycle.status} cycle are final`, { field: 'weights' });
    changes.weights = checkWeights(input.weights);
  }
  const move = input.status !== undefined ? cycleMachine.moveTo(cycle.status, input.status) : null;
  if (move) changes.status = move.to;
  if (!Object.keys(changes).length) return cycle;
  await ctx.db.cycles.update({ ...changes, revision: cycle.revision + 1 }, { where: { id: cycle.id } });
  const row = (await ctx.db.cycles.findById(cycle.id))!;
  if (move?.to === 'self_review') {
    const people = await ctx.db.people.findAll({ where: { status: { [Op.ne]: 'terminated' } }, order: [['name', 'ASC'], ['id', 'ASC']] });
    for (const [position, person] of people.entries()) await ctx.db.reviews.create({ cycle_id: row.id, worker_id: person.id, position, manager_id: person.manager_id });
  }
  if (move?.to === 'released') {
    for (const review of await ctx.db.reviews.findAll({ where: { cycle_id: row.id }, order: [['position', 'ASC']] })) {
      const nominations = await ctx.db.nominations.findAll({ where: { review_id: review.id } });
      const score = finalScore(review, submittedPeerScores(nominations), row.weights);
      await ctx.db.reviews.update({ final_score: score }, { where: { id: review.id } });
      ctx.events.stage('core.growth.review.released', { review_id: review.id, cycle_id: row.id, worker_id: review.worker_id, worker_mrn: formatMrn('workers', 'worker', review.worker_id), final_score: score, ...by(ctx) });
    }
  }
  return row;
}

/** Who the caller is towards a review: HR, the subject's manager (at any depth), the subject, an approved peer, or no one. */
export type Relation = 'hr' | 'manager' | 'subject' | 'peer' | null;

interface Viewer {
  person: Person | null;
  readAll: boolean;
  reports: Set<string>;
}

/** The caller as the visibility rules see them: their worker in the copy and everyone below them. */
export async function viewerOf(ctx: GrowthContext): Promise<Viewer> {
  const person = await personOfMember(ctx, ctx.member.id);
  const reports = new Set(person ? await reportsOf(ctx, person.id) : []);
  return { person, readAll: ctx.permissions.has(READ_ALL), reports };
}

/** An approved peer reaches the review only during peer review, to write their part. */
async function relationTo(ctx: GrowthBaseContext, viewer: Viewer, review: Review, cycle: Cycle): Promise<Relation> {
  if (viewer.person && viewer.reports.has(review.worker_id)) return 'manager';
  if (viewer.person && review.worker_id === viewer.person.id) return 'subject';
  if (viewer.readAll) return 'hr';
  if (viewer.person && cycle.status === 'peer_review' && (await ctx.db.nominations.findOne({ where: { review_id: review.id, peer_id: viewer.person.id, status: 'approved' } }))) return 'peer';
  return null;
}

const RELEASED = new Set(['released', 'closed']);

/** A review as the caller may see it: whole for HR and managers, and for the subject once released; during the cycle the subject sees their own part only. */
export async function presentReview(ctx: GrowthBaseContext, review: Review, cycle: Cycle, relation: Relation) {
  const person = await ctx.db.people.findById(review.worker_id);
  const nominations = await ctx.db.nominations.findAll({ where: { review_id: review.id }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  const whole = relation === 'hr' || relation === 'manager' || (relation === 'subject' && RELEASED.has(cycle.status));
  const viewer = relation === 'peer' && 'member' in ctx ? await personOfMember(ctx, (ctx as GrowthContext).member.id) : null;
  const own = relation !== 'peer';
  const names = new Map((nominations.length ? await ctx.db.people.findAll({ where: { id: { [Op.in]: nominations.map((n) => n.peer_id) } } }) : []).map((row) => [row.id, row.name]));
  return {
    id: review.id,
    cycle_id: review.cycle_id,
    cycle_status: cycle.status,
    worker_id: review.worker_id,
    worker_name: person?.name ?? null,
    manager_id: review.manager_id,
    self_score: own ? review.self_score : null,
    self_comment: own ? review.self_comment : '',
    manager_score: whole ? review.manager_score : null,
    manager_comment: whole ? review.manager_comment : '',
    calibrated_score: whole ? review.calibrated_score : null,
    final_score: whole ? (review.final_score ?? finalScore(review, submittedPeerScores(nominations), cycle.weights)) : null,
    peers: nominations.filter((n) => own || n.peer_id === viewer?.id).map((n) => ({ id: n.id, peer_id: n.peer_id, peer_name: names.get(n.peer_id) ?? null, status: n.status, score: whole || !own ? n.score : null, comment: whole || !own ? n.comment : '' })),
    created_at: review.created_at,
    updated_at: review.updated_at,
  };
}

/**
 * The reviews the caller may see, by worker name: every one with `growth.all_reviews.read`;
 * otherwise those of their reports (recursively, from the copy of the manager tree) and their
 * own once the cycle is released (their own during the cycle too, to write their part). The
 * visibility is the query's condition: nothing else is read.
 */
export async function listReviews(ctx: GrowthContext, cycleId: string) {
  const cycle = await requireCycle(ctx, cycleId);
  const viewer = await viewerOf(ctx);
  const where: Record<string, unknown> = { cycle_id: cycle.id };
  if (!viewer.readAll) {
    const visible = { worker_id: { [Op.in]: [...viewer.reports, ...(viewer.person ? [viewer.person.id] : [])] } };
    // An approved peer sees the reviews they write, during peer review only.
    const asPeer = viewer.person && cycle.status === 'peer_review' ? (await ctx.db.nominations.findAll({ where: { peer_id: viewer.person.id, status: 'approved' } })).map((n) => n.review_id) : [];
    Object.assign(where, asPeer.length ? { [Op.or]: [visible, { id: { [Op.in]: asPeer } }] } : visible);
  }
  const { rows, count } = await ctx.db.reviews.findAndCountAll({ where, order: [['position', 'ASC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
  const shown = [];
  for (const review of rows) shown.push(await presentReview(ctx, review, cycle, (await relationTo(ctx, viewer, review, cycle)) ?? 'hr'));
  return { rows: shown, count };
}

/** The review if the caller may see it; 404 otherwise (an invisible review answers as a missing one). */
export async function readReview(ctx: GrowthContext, reviewId: string, lock = false): Promise<{ review: Review; cycle: Cycle; relation: Exclude<Relation, null> }> {
  const review = await ctx.db.reviews.findById(reviewId, lock ? { lock: 'update' } : {});
  const viewer = await viewerOf(ctx);
  const cycle = review ? await requireCycle(ctx, review.cycle_id) : null;
  const relation = review && cycle ? await relationTo(ctx, viewer, review, cycle) : null;
  if (!review || !cycle || !relation) throw new NotFoundError(`Review ${reviewId} not found`);
  return { review, cycle, relation };
}

/** Which part a relation writes, and in which state of the cycle. */
const PARTS = { subject: 'self_review', peer: 'peer_review', manager: 'manager_review', hr: 'calibration' } as const;

/**
 * Writes the caller's part of a review: the subject their self review (self_review), an approved
 * peer their feedback (peer_review), the manager theirs (manager_review), HR the calibrated
 * score (calibration). Any other state is a 409 naming it.
 */
export async function writeReview(ctx: GrowthContext, reviewId: string, input: { score: number; comment?: string }) {
  const { review, cycle, relation } = await readReview(ctx, reviewId, true);
  let part: keyof typeof PARTS = relation;
  // HR who manages the worker writes as the manager until calibration.
  if (relation === 'manager' && cycle.status === 'calibration' && ctx.permissions.has(READ_ALL)) part = 'hr';
  if (cycle.status !== PARTS[part]) throw new ConflictError(`The cycle is in ${cycle.status}: the ${part === 'hr' ? 'calibrated score' : `${part === 'subject' ? 'self' : part} review`} is written in ${PARTS[part]}`);
  const comment = input.comment?.trim() ?? '';
  if (part === 'subject') await ctx.db.reviews.update({ self_score: input.score, self_comment: comment }, { where: { id: review.id } });
  else if (part === 'manager') await ctx.db.reviews.update({ manager_score: input.score, manager_comment: comment }, { where: { id: review.id } });
  else if (part === 'hr') await ctx.db.reviews.update({ calibrated_score: input.score }, { where: { id: review.id } });
  else {
    const viewer = await viewerOf(ctx);
    await ctx.db.nominations.update({ score: input.score, comment }, { where: { review_id: review.id, peer_id: viewer.person!.id } });
  }
  return presentReview(ctx, (await ctx.db.reviews.findById(review.id))!, cycle, relation);
}

/** The subject (or their manager) nominates a peer, before peer review starts; the manager approves. */
export async function nominatePeer(ctx: GrowthContext, reviewId: string, peerId: string) {
  const { review, cycle, relation } = await readReview(ctx, reviewId, true);
  if (relation !== 'subject' && relation !== 'manager') throw new ForbiddenError('Only the reviewed worker or their manager nominates peers');
  if (!['draft', 'self_review'].includes(cycle.status)) throw new ConflictError(`Peers are nominated during self_review; the cycle is in ${cycle.status}`);
  if (peerId === review.worker_id) throw new InvalidError('peer_id is the reviewed worker', { field: 'peer_id' });
  if (!(await ctx.db.people.findById(peerId))) throw new InvalidError(`peer_id ${peerId} is not a worker of this workspace`, { field: 'peer_id' });
  if (await ctx.db.nominations.findOne({ where: { review_id: review.id, peer_id: peerId } })) throw new ConflictError(`Worker ${peerId} is already nominated for this review`, { field: 'peer_id' });
  await ctx.db.nominations.create({ review_id: review.id, peer_id: peerId, status: relation === 'manager' ? 'approved' : 'proposed' });
  return presentReview(ctx, review, cycle, relation);
}

/** The manager (or HR) approves or declines a nomination. */
export async function decideNomination(ctx: GrowthContext, reviewId: string, nominationId: string, status: 'approved' | 'declined') {
  const { review, cycle, relation } = await readReview(ctx, reviewId, true);
  if (relation !== 'manager' && relation !== 'hr') throw new ForbiddenError("Only the reviewed worker's manager approves peer nominations");
  if (!['draft', 'self_review'].includes(cycle.status)) throw new ConflictError(`Nominations are decided before peer_review; the cycle is in ${cycle.status}`);
  const nomination = await ctx.db.nominations.findOne({ where: { id: nominationId, review_id: review.id } });
  if (!nomination) throw new NotFoundError(`Nomination ${nominationId} not found`);
  await ctx.db.nominations.update({ status }, { where: { id: nomination.id } });
  return presentReview(ctx, review, cycle, relation);
}
