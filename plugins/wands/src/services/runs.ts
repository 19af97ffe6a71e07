import { ConflictError, InvalidError, NotFoundError, Op } from '@wpk/sdk';
import type { AnyCtx, Ctx, EventCtx } from '../kit.js';
import type { Run, Wand } from '../models/index.js';
import { evaluate } from './engine.js';
import { advance } from './engine.js';
import { suspendWand } from './grant.js';
import { hashToken, requireWand, startRun, versionOf } from './wands.js';

/** A run as answered, with its log when `steps` is given. */
export function presentRun(run: Run, steps?: Array<Record<string, unknown>>) {
  return {
    id: run.id, wand_id: run.wand_id, version: run.version, status: run.status, dry_run: run.dry_run, trigger_id: run.trigger_id, trigger_kind: run.trigger_kind,
    input: run.input, vars: run.vars, next_step: run.next_step, error: run.error, rerun_of: run.rerun_of, microns: Number(run.microns), finished_at: run.finished_at,
    created_at: (run as unknown as { created_at: Date }).created_at,
    ...(steps ? { steps } : {}),
  };
}

export async function runWithLog(ctx: AnyCtx, run: Run) {
  const steps = await ctx.db.runSteps.findAll({ where: { run_id: run.id }, order: [['position', 'ASC']] });
  return presentRun(run, steps.map((step) => ({ position: step.position, step: step.step, type: step.type, status: step.status, attempt: step.attempt, output: step.output, error: step.error, microns: Number(step.microns) })));
}

export async function listRuns(ctx: Ctx, wandId: string, query: { status?: string }) {
  await requireWand(ctx, wandId);
  const where: Record<string, unknown> = { wand_id: wandId };
  if (query.status) where.status = query.status;
  return ctx.db.runs.findAndCountAll({ where, order: [['created_at', 'DESC'], ['id', 'DESC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

export async function requireRun(ctx: Ctx, runId: string): Promise<{ run: Run; wand: Wand }> {
  const run = await ctx.db.runs.findById(runId);
  if (!run) throw new NotFoundError(`Run ${runId} not found`);
  try {
    return { run, wand: await requireWand(ctx, run.wand_id) };
  } catch {
    throw new NotFoundError(`Run ${runId} not found`);
  }
}

/**
 * Reruns a finished run from a step, on the version it pinned, with its input and what its steps
 * stored. Once per run and step: asking again answers the same rerun (no second run, no event).
 */
export async function rerun(ctx: Ctx, runId: string, fromStep: number) {
  const { run, wand } = await requireRun(ctx, runId);
  if (run.dry_run) throw new ConflictError(`Run ${runId} is a dry run: make another dry run instead`);
  if (!['completed', 'failed', 'stopped'].includes(run.status)) throw new ConflictError(`Run ${runId} is ${run.status}: only a finished run is rerun`);
  if (wand.status !== 'active') throw new ConflictError(`Wand ${wand.id} is ${wand.status}: only an active wand runs`);
  const version = await versionOf(ctx, wand.id, run.version);
  if (fromStep >= version.steps.length) throw new InvalidError(`from_step: version ${run.version} has steps 0 to ${version.steps.length - 1}`, { field: 'from_step' });
  const trigger = version.triggers.find((one) => one.id === run.trigger_id) ?? { id: run.trigger_id, type: 'manual' as const };
  const started = await startRun(ctx, wand, trigger, `rerun:${run.id}:${fromStep}`, run.input, { rerunOf: run, fromStep });
  return started.run;
}

/** The active wands whose active version has a trigger of `type` (and `action`). */
async function activeWith(ctx: AnyCtx, type: string, action?: string) {
  const wands = await ctx.db.wands.findAll({ where: { status: 'active' }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  const found: Array<{ wand: Wand; triggers: Wand['triggers'] }> = [];
  for (const wand of wands) {
    const version = await versionOf(ctx, wand.id, wand.version!);
    const triggers = version.triggers.filter((trigger) => trigger.type === type && (action === undefined || trigger.action === action));
    if (triggers.length > 0) found.push({ wand, triggers });
  }
  return found;
}

/** A catalog event: every active wand with a matching trigger whose filter holds starts a run (once per broker event id). */
export async function onCatalogEvent(ctx: EventCtx, event: { action: string; payload: object; metadata: Record<string, unknown>; deliveryId?: string }) {
  const eventId = String(event.deliveryId ?? event.metadata.event_id ?? '');
  if (!eventId) return;
  for (const { wand, triggers } of await activeWith(ctx, 'event', event.action)) {
    for (const trigger of triggers) {
      const input = { type: 'event', action: event.action, event_id: eventId, payload: event.payload };
      if (trigger.filter && !(await evaluate(trigger.filter, { trigger: input, payload: event.payload }).catch(() => false))) continue;
      await startRun(ctx, wand, trigger, `event:${eventId}:${trigger.id}`, input);
    }
  }
}

/** A cron firing: a run if the wand is still active on that version, and the next firing. */
export async function onCronDue(ctx: EventCtx, payload: { wand_id: string; version: number; trigger_id: string; at: string }) {
  const wand = await ctx.db.wands.findById(payload.wand_id);
  if (!wand || wand.status !== 'active' || wand.version !== payload.version) return;
  const trigger = (await versionOf(ctx, wand.id, wand.version)).triggers.find((one) => one.id === payload.trigger_id && one.type === 'cron');
  if (!trigger) return;
  await startRun(ctx, wand, trigger, `cron:${trigger.id}:${payload.at}`, { type: 'cron', at: payload.at });
  const { nextCron } = await import('./definition.js');
  const next = nextCron(trigger, new Date(new Date(payload.at).getTime() + 1000));
  if (next) ctx.events.stage('core.wands.cron.fired', { ...payload, at: next.toISOString() }, {}, { deliverAt: next, dedupeKey: `cron:${wand.id}:${trigger.id}` });
}

/** A delay's end or a retry: the run moves on if it still waits at that step. */
export async function onScheduled(ctx: EventCtx, payload: { run_id: string; step: number; attempt: number }) {
  const run = await ctx.db.runs.findById(payload.run_id);
  if (!run || run.status !== 'waiting' || run.next_step !== payload.step || run.attempt !== payload.attempt) return;
  const wand = await ctx.db.wands.findById(run.wand_id);
  if (!wand) return;
  const version = await versionOf(ctx, wand.id, run.version);
  await advance(ctx, wand, run, version.steps, version.scopes);
}

/** An inbound webhook call: the token names the trigger; the body is the run's input. */
export async function onWebhook(ctx: AnyCtx, token: string, body: unknown, requestId: string | undefined) {
  const secret = await ctx.db.webhookSecrets.findOne({ where: { token_hash: hashToken(token) } });
  const wand = secret ? await ctx.db.wands.findById(secret.wand_id) : null;
  if (!secret || !wand) throw new NotFoundError('Webhook not found');
  if (wand.status !== 'active') throw new ConflictError(`The wand is ${wand.status}: only an active wand runs`);
  const trigger = (await versionOf(ctx, wand.id, wand.version!)).triggers.find((one) => one.id === secret.trigger_id);
  if (!trigger) throw new ConflictError('The webhook was added after the active version: activate the wand again');
  const { run, created } = await startRun(ctx, wand, trigger, `webhook:${trigger.id}:${requestId ?? crypto.randomUUID()}`, { type: 'webhook', body: (body ?? {}) as Record<string, unknown> });
  return { run_id: run.id, status: run.status, duplicate: !created };
}

/** The owner left or their roles changed: every wand whose grant fails now is suspended (running runs stop at their next step anyway). */
export async function recheckGrants(ctx: EventCtx, where: { owner_id?: string } = {}) {
  const { ownerGrantProblem } = await import('./grant.js');
  const wands = await ctx.db.wands.findAll({ where: { ...where, status: { [Op.in]: ['active', 'paused'] } }, order: [['id', 'ASC']] });
  for (const wand of wands) {
    const problem = await ownerGrantProblem(ctx, wand.owner_id, wand.scopes);
    if (problem) await suspendWand(ctx, wand, problem);
  }
}
