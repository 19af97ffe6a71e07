import { Joi } from '@wpk/sdk';
import { route, routeFamily } from '../kit.js';
import { CYCLE_STATUSES, type Cycle, type Person } from '../models/index.js';
import { createCycle, decideNomination, listCycles, listReviews, nominatePeer, presentCycle, presentReview, readReview, updateCycle, writeReview } from '../services/reviews.js';
import { CYCLE, PERSON, REVIEW } from './answers.js';
import { listPeople } from '../services/copies.js';

const weights = Joi.object({ self: Joi.number().integer().min(0).max(100).required(), peer: Joi.number().integer().min(0).max(100).required(), manager: Joi.number().integer().min(0).max(100).required() });

const cycles = routeFamily('/growth/cycles', { record: CYCLE, present: (cycle: Cycle) => presentCycle(cycle), links: (cycle) => ({ self: `/growth/cycles/${cycle.id}` }) });
const cycle = cycles.at('/{cycle_id}', { params: Joi.idParams('cycle_id') });
const reviews = routeFamily('/growth/reviews', { record: REVIEW });
const review = reviews.at('/{review_id}', { params: Joi.idParams('review_id') });

const people = routeFamily('/growth/people', { record: PERSON, present: (row: Person) => ({ id: row.id, name: row.name, member_id: row.member_id, manager_id: row.manager_id, department_id: row.department_id, status: row.status }) });

/** Review cycles, reviews and peer nominations. */
export const reviewRoutes = [
  people.list({
    chain: ['growth.reviews.read'],
    description: "The workers Growth knows (its copy of Workers), by name: who may be nominated as a peer, met in a 1:1 or praised; q matches the name, member_id finds a member's worker",
    query: Joi.listQuery({ q: Joi.string().max(200).allow(''), member_id: Joi.id() }),
    run: (request, ctx) => listPeople(ctx, request.query as { q?: string; member_id?: string }),
  }),
  cycles.list({
    chain: ['growth.cycles.read'],
    description: 'Lists review cycles, newest first; status filters',
    query: Joi.listQuery({ status: Joi.string().valid(...CYCLE_STATUSES) }),
    run: (request, ctx) => listCycles(ctx, request.query.status as string | undefined),
  }),
  cycles.post({
    chain: ['growth.cycles.manage'],
    description: "Creates a review cycle in draft with the final score's weights (self, peer, manager; summing to 100; default from the settings)",
    payload: Joi.object({ name: Joi.string().trim().min(1).max(200).required(), weights }),
    run: (request, ctx) => createCycle(ctx, request.payload),
  }),
  cycle.patch({
    chain: ['growth.cycles.manage'],
    description: 'Renames a cycle, changes its weights before release, or moves it one step (status): draft → self_review (creates the reviews) → peer_review → manager_review → calibration → released (final scores, review.released) → closed',
    payload: Joi.object({ name: Joi.string().trim().min(1).max(200), weights, status: Joi.string().valid(...CYCLE_STATUSES) }),
    run: (request, ctx) => updateCycle(ctx, request.params.cycle_id, request.payload),
  }),
  reviews.list({
    chain: ['growth.reviews.read'],
    description: "The reviews of a cycle the caller may see: their reports' (at any depth), their own (whole once released) and, with growth.all_reviews.read, every one",
    query: Joi.listQuery({ cycle_id: Joi.id().required() }),
    run: (request, ctx) => listReviews(ctx, request.query.cycle_id as string),
  }),
  review.get({
    chain: ['growth.reviews.read'],
    description: 'Reads a review the caller may see (404 otherwise)',
    async run(request, ctx) {
      const { review: row, cycle: owner, relation } = await readReview(ctx, request.params.review_id);
      return presentReview(ctx, row, owner, relation);
    },
  }),
  review.put({
    chain: ['growth.reviews.read'],
    description: 'Writes the caller’s part: the worker their self review (self_review), an approved peer theirs (peer_review), the manager theirs (manager_review), HR the calibrated score (calibration)',
    payload: Joi.object({ score: Joi.number().min(1).max(5).required(), comment: Joi.string().trim().max(10000).allow('') }),
    run: (request, ctx) => writeReview(ctx, request.params.review_id, request.payload),
  }),
  review.at('/peers').post({
    chain: ['growth.reviews.read'],
    description: 'Nominates a peer (a worker) for the review, before peer review; the manager’s nomination is approved at once',
    payload: Joi.object({ peer_id: Joi.id().required() }),
    run: (request, ctx) => nominatePeer(ctx, request.params.review_id, request.payload.peer_id),
  }),
  route({
    method: 'PATCH',
    path: '/growth/reviews/{review_id}/peers/{nomination_id}',
    chain: ['growth.reviews.read'],
    answers: { single: REVIEW },
    description: "The worker's manager approves or declines a peer nomination",
    validate: { params: Joi.idParams('review_id', 'nomination_id'), payload: Joi.object({ status: Joi.string().valid('approved', 'declined').required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await decideNomination(ctx, request.params.review_id, request.params.nomination_id, request.payload.status));
    },
  }),
];

