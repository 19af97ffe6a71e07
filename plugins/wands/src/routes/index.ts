import { Joi } from '@wpk/sdk';
import { publicRoute, route, routeFamily } from '../kit.js';
import { RUN_STATUSES, WAND_STATUSES, type Wand } from '../models/index.js';
import { listRuns, onWebhook, requireRun, rerun, runWithLog, presentRun } from '../services/runs.js';
import { usageOf } from '../services/usage.js';
import { activateWand, createWand, deleteWand, dryRun, listWands, manualRun, pauseWand, presentWand, requireWand, updateWand } from '../services/wands.js';
import { DELETED_WAND, HOOK, RUN, USAGE, WAND } from './answers.js';

const wandFields = {
  name: Joi.string().trim().min(1).max(200),
  triggers: Joi.array().max(10).items(Joi.object().unknown(true)),
  steps: Joi.array().max(50).items(Joi.object().unknown(true)),
  scopes: Joi.array().max(50).items(Joi.string().max(200)),
};

const wands = routeFamily('/wands', { record: WAND, present: (wand: Wand) => presentWand(wand), links: (wand) => ({ self: `/wands/${wand.id}` }) });
const wand = wands.at('/{wand_id}', { params: Joi.idParams('wand_id') });
/** How deep a free-form JSON value may nest (a webhook's body, a dry run's input): deeper is a 400, never a crash. */
const MAX_DEPTH = 32;
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_DEPTH) return deepest;
    for (const inner of Object.values(item as Record<string, unknown>)) stack.push([inner, depth + 1]);
  }
  return deepest;
}
/** A free-form JSON object, at most MAX_DEPTH levels deep. */
const freeObject = () =>
  Joi.object().unknown(true).custom((value, helpers) => (depthOf(value) > MAX_DEPTH ? helpers.message({ custom: `{{#label}} must not nest more than ${MAX_DEPTH} levels` }) : value));

const idParam = (name: string) => Joi.object({ [name]: Joi.id().required() });

/** Every route of the app. */
export const routes = [
  wands.list({
    chain: ['wands.wands.read'],
    description: "Lists the caller's wands by name (every wand for an admin of wands: owner_id and status=suspended find those to reassign)",
    query: Joi.listQuery({ status: Joi.string().valid(...WAND_STATUSES), owner_id: Joi.memberId({ former: true }) }),
    run: (request, ctx) => listWands(ctx, request.query as never),
  }),
  route({
    method: 'POST',
    path: '/wands',
    chain: ['wands.wands.manage'],
    answers: { single: WAND },
    description: 'Makes a draft wand owned by the caller: triggers, steps (each checked: a 400 names steps[i].field), scopes (a subset of the caller\'s permissions); a webhook trigger\'s secret path is shown once',
    validate: { payload: Joi.object({ ...wandFields, name: wandFields.name.required() }) },
    handler: async (request, ctx) => ctx.respond.single(await createWand(ctx, request.payload as never)),
  }),
  route({
    method: 'GET',
    path: '/wands/usage',
    chain: ['wands.wands.read'],
    answers: { single: USAGE },
    description: "The workspace's microns this month (summed in SQL), its allowance and what remains, by wand",
    handler: async (_request, ctx) => ctx.respond.single(await usageOf(ctx)),
  }),
  route({
    method: 'GET',
    path: '/wands/{wand_id}',
    chain: ['wands.wands.read'],
    answers: { single: WAND },
    description: 'Reads a wand (its owner, or an admin of wands)',
    validate: { params: idParam('wand_id') },
    handler: async (request, ctx) => ctx.respond.single(presentWand(await requireWand(ctx, request.params.wand_id))),
  }),
  route({
    method: 'PATCH',
    path: '/wands/{wand_id}',
    chain: ['wands.wands.manage'],
    answers: { single: WAND },
    description: 'Changes the draft (the active version stays frozen until the next activation) or, for an admin, reassigns the owner (who must hold the scopes)',
    validate: { params: idParam('wand_id'), payload: Joi.object({ ...wandFields, owner_id: Joi.memberId() }).min(1) },
    handler: async (request, ctx) => ctx.respond.single(await updateWand(ctx, request.params.wand_id, request.payload as never)),
  }),
  wand.delete({ chain: ['wands.wands.manage'], answers: { single: DELETED_WAND }, description: 'Deletes a wand with its versions and runs', run: (request, ctx) => deleteWand(ctx, request.params.wand_id) }),
  route({
    method: 'POST',
    path: '/wands/{wand_id}/activate',
    chain: ['wands.wands.manage'],
    answers: { single: WAND },
    description: 'Freezes the draft as the next version and activates it (from draft or paused; from suspended once reassigned); emits wand.activated',
    validate: { params: idParam('wand_id') },
    handler: async (request, ctx) => ctx.respond.single(await activateWand(ctx, request.params.wand_id)),
  }),
  route({
    method: 'POST',
    path: '/wands/{wand_id}/pause',
    chain: ['wands.wands.manage'],
    answers: { single: WAND },
    description: 'Pauses an active wand (its cron firings are withdrawn); emits wand.paused',
    validate: { params: idParam('wand_id') },
    handler: async (request, ctx) => ctx.respond.single(await pauseWand(ctx, request.params.wand_id)),
  }),
  route({
    method: 'GET',
    path: '/wands/{wand_id}/runs',
    chain: ['wands.wands.read'],
    answers: { collection: RUN },
    description: "Lists a wand's runs, newest first",
    validate: { params: idParam('wand_id'), query: Joi.listQuery({ status: Joi.string().valid(...RUN_STATUSES) }) },
    async handler(request, ctx) {
      const { rows, count } = await listRuns(ctx, request.params.wand_id, request.query as never);
      return ctx.respond.collection(rows.map((run) => presentRun(run)), count, ctx.page);
    },
  }),
  route({
    method: 'POST',
    path: '/wands/{wand_id}/runs',
    chain: ['wands.wands.manage'],
    answers: { single: RUN },
    description: "Runs an active wand by its manual trigger, with a record's MRN when the trigger takes one",
    validate: { params: idParam('wand_id'), payload: Joi.object({ trigger_id: Joi.string().max(40), record_mrn: Joi.string().max(300) }) },
    handler: async (request, ctx) => ctx.respond.single(await runWithLog(ctx, await manualRun(ctx, request.params.wand_id, request.payload as never))),
  }),
  route({
    method: 'POST',
    path: '/wands/{wand_id}/dry-runs',
    chain: ['wands.wands.manage'],
    answers: { single: RUN },
    description: "Runs the draft's steps on a stored run's input (run_id) or a given input, side effects stubbed, nothing metered",
    validate: { params: idParam('wand_id'), payload: Joi.object({ run_id: Joi.id(), input: freeObject() }).oxor('run_id', 'input') },
    handler: async (request, ctx) => ctx.respond.single(await runWithLog(ctx, await dryRun(ctx, request.params.wand_id, request.payload as never))),
  }),
  route({
    method: 'GET',
    path: '/wands/runs/{run_id}',
    chain: ['wands.wands.read'],
    answers: { single: RUN },
    description: 'Reads a run with its per-step log (secrets redacted)',
    validate: { params: idParam('run_id') },
    handler: async (request, ctx) => ctx.respond.single(await runWithLog(ctx, (await requireRun(ctx, request.params.run_id)).run)),
  }),
  route({
    method: 'POST',
    path: '/wands/runs/{run_id}/rerun',
    chain: ['wands.wands.manage'],
    answers: { single: RUN },
    description: 'Reruns a finished run from a step (default 0) on the version it pinned; once per run and step (asking again answers the same rerun)',
    validate: { params: idParam('run_id'), payload: Joi.object({ from_step: Joi.number().integer().min(0).max(49).default(0) }) },
    handler: async (request, ctx) => ctx.respond.single(await runWithLog(ctx, await rerun(ctx, request.params.run_id, (request.payload as { from_step: number }).from_step))),
  }),
  publicRoute({
    method: 'POST',
    path: '/wands/webhooks/{token}',
    answers: { single: HOOK },
    description: "An inbound webhook: runs the wand's webhook trigger with the JSON body (an x-request-id header makes the call once-only)",
    validate: { params: Joi.object({ token: Joi.string().min(20).max(100).pattern(/^[A-Za-z0-9_-]+$/).required() }), payload: freeObject().allow(null) },
    handler: async (request, ctx) => ctx.respond.single(await onWebhook(ctx, request.params.token, request.payload, (request.headers as Record<string, string | undefined>)['x-request-id'])),
  }),
];
