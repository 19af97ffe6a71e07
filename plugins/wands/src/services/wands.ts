import { createHash, randomBytes } from 'node:crypto';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Run, Step, Trigger, Wand, WandVersion } from '../models/index.js';
import { checkScopes, checkSteps, checkTriggers, nextCron } from './definition.js';
import { advance } from './engine.js';
import { ownerGrantProblem, withdrawSchedules } from './grant.js';
import { wandMachine } from './machine.js';

export const ADMIN = 'wands.all_wands.manage';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A wand as answered; `webhooks` only right after a save that made a webhook trigger (shown once). */
export function presentWand(wand: Wand, webhooks?: Record<string, string>) {
  return {
    id: wand.id,
    name: wand.name,
    owner_id: wand.owner_id,
    status: wand.status,
    status_reason: wand.status_reason,
    triggers: wand.triggers,
    steps: wand.steps,
    scopes: wand.scopes,
    version: wand.version,
    revision: wand.revision,
    ...(webhooks && Object.keys(webhooks).length > 0 ? { webhooks } : {}),
    created_at: (wand as unknown as { created_at: Date }).created_at,
    updated_at: (wand as unknown as { updated_at: Date }).updated_at,
  };
}

/** The wand, if the caller may see it: their own, or any for an admin of wands (404 otherwise). */
export async function requireWand(ctx: Ctx, id: string): Promise<Wand> {
  const wand = await ctx.db.wands.findById(id);
  if (!wand || (wand.owner_id !== ctx.member.id && !ctx.permissions.has(ADMIN))) throw new NotFoundError(`Wand ${id} not found`);
  return wand;
}

/** The caller's wands (every wand for an admin), by name; `status` filters. */
export async function listWands(ctx: Ctx, query: { status?: string; owner_id?: string }) {
  const where: Record<string, unknown> = {};
  if (!ctx.permissions.has(ADMIN)) where.owner_id = ctx.member.id;
  else if (query.owner_id) where.owner_id = query.owner_id;
  if (query.status) where.status = query.status;
  return ctx.db.wands.findAndCountAll({ where, order: [['name', 'ASC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

/** New webhook triggers' secrets: made now, kept as SHA-256, answered once. */
async function makeWebhookSecrets(ctx: AnyCtx, wand: Wand, before: readonly Trigger[]): Promise<Record<string, string>> {
  const shown: Record<string, string> = {};
  const kept = new Set(before.filter((trigger) => trigger.type === 'webhook').map((trigger) => trigger.id));
  for (const trigger of wand.triggers.filter((one) => one.type === 'webhook' && !kept.has(one.id))) {
    const token = randomBytes(24).toString('base64url');
    await ctx.db.webhookSecrets.create({ wand_id: wand.id, trigger_id: trigger.id, token_hash: hashToken(token) });
    shown[trigger.id] = `/wands/webhooks/${token}`;
  }
  const gone = before.filter((trigger) => trigger.type === 'webhook' && !wand.triggers.some((one) => one.id === trigger.id && one.type === 'webhook')).map((trigger) => trigger.id);
  if (gone.length > 0) await ctx.db.webhookSecrets.destroy({ where: { wand_id: wand.id, trigger_id: gone } });
  return shown;
}

/** Refuses scopes the owner does not hold now (400 naming `scopes`). */
async function assertScopes(ctx: AnyCtx, ownerId: string, scopes: string[], field = 'scopes'): Promise<void> {
  const problem = await ownerGrantProblem(ctx, ownerId, scopes);
  if (problem) throw new InvalidError(`${field}: ${problem.replace('The owner no longer holds', 'the owner does not hold')}`, { field });
}

export async function createWand(ctx: Ctx, input: { name: string; triggers?: unknown; steps?: unknown; scopes?: unknown }) {
  const triggers = checkTriggers(input.triggers ?? []);
  const steps = checkSteps(input.steps ?? []);
  const scopes = checkScopes(input.scopes ?? []);
  await assertScopes(ctx, ctx.member.id, scopes);
  const wand = await ctx.db.wands.create({ name: input.name, owner_id: ctx.member.id, status: 'draft', triggers, steps, scopes, created_by: ctx.member.id, revision: 1 });
  return presentWand(wand, await makeWebhookSecrets(ctx, wand, []));
}

/**
 * Changes the draft (a running version is frozen: the change applies at the next activation), or
 * reassigns the owner (admins only; the new owner must hold the scopes).
 */
export async function updateWand(ctx: Ctx, id: string, input: { name?: string; triggers?: unknown; steps?: unknown; scopes?: unknown; owner_id?: string }) {
  const wand = await requireWand(ctx, id);
  await ctx.lock(`wand:${id}`);
  const before = wand.triggers;
  const changes: Partial<Wand> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.triggers !== undefined) changes.triggers = checkTriggers(input.triggers, wand.triggers);
  if (input.steps !== undefined) changes.steps = checkSteps(input.steps);
  if (input.scopes !== undefined) changes.scopes = checkScopes(input.scopes);
  if (input.owner_id !== undefined && input.owner_id !== wand.owner_id) {
    if (!ctx.permissions.has(ADMIN)) throw new ForbiddenError(`Missing permission: ${ADMIN}`);
    await ctx.members.require(input.owner_id, 'owner_id');
    changes.owner_id = input.owner_id;
  }
  const owner = changes.owner_id ?? wand.owner_id;
  if (changes.scopes !== undefined || changes.owner_id !== undefined) await assertScopes(ctx, owner, changes.scopes ?? wand.scopes, changes.owner_id !== undefined && changes.scopes === undefined ? 'owner_id' : 'scopes');
  changes.revision = wand.revision + 1;
  await ctx.db.wands.update(changes, { where: { id } });
  Object.assign(wand, changes);
  return presentWand(wand, await makeWebhookSecrets(ctx, wand, before));
}

export async function deleteWand(ctx: Ctx, id: string) {
  const wand = await requireWand(ctx, id);
  withdrawSchedules(ctx, wand);
  await ctx.db.wands.destroy({ where: { id } });
  return { id, deleted: true as const };
}

/** Schedules each cron trigger's next firing of the active version. */
function scheduleCrons(ctx: AnyCtx, wand: Wand, from: Date): void {
  for (const trigger of wand.triggers.filter((one) => one.type === 'cron')) {
    const at = nextCron(trigger, from);
    if (at) ctx.events.stage('core.wands.cron.fired', { wand_id: wand.id, version: wand.version!, trigger_id: trigger.id, at: at.toISOString() }, {}, { deliverAt: at, dedupeKey: `cron:${wand.id}:${trigger.id}` });
  }
}

/**
 * Activates: freezes the draft as the next version (runs pin it) and schedules its cron triggers.
 * From draft or paused; from suspended only once the wand was reassigned to another owner. The
 * owner must hold the scopes now, and a wand needs a trigger and a step.
 */
export async function activateWand(ctx: Ctx, id: string) {
  const wand = await requireWand(ctx, id);
  await ctx.lock(`wand:${id}`);
  if (wand.status === 'suspended' && wand.suspended_owner_id === wand.owner_id) throw new ConflictError(`Wand ${id} is suspended (${wand.status_reason}): reassign it to another owner (PATCH owner_id) before activating it`);
  if (wand.status !== 'suspended') wandMachine.move(wand.status, 'activate');
  if (wand.triggers.length === 0) throw new InvalidError('triggers: a wand needs at least one trigger to be activated', { field: 'triggers' });
  if (wand.steps.length === 0) throw new InvalidError('steps: a wand needs at least one step to be activated', { field: 'steps' });
  const problem = await ownerGrantProblem(ctx, wand.owner_id, wand.scopes);
  if (problem) throw new ConflictError(`Wand ${id} cannot be activated: ${problem}`);
  const number = (wand.version ?? 0) + 1;
  await ctx.db.versions.create({ wand_id: id, number, triggers: wand.triggers, steps: wand.steps, scopes: wand.scopes, activated_by: ctx.member.id });
  const from = wand.status as 'draft' | 'paused' | 'suspended';
  const changes = { status: 'active' as const, status_reason: null, suspended_owner_id: null, version: number, revision: wand.revision + 1 };
  await ctx.db.wands.update(changes, { where: { id } });
  Object.assign(wand, changes);
  withdrawSchedules(ctx, wand);
  scheduleCrons(ctx, wand, ctx.now());
  ctx.events.stage('core.wands.wand.activated', { wand_id: id, name: wand.name, owner_id: wand.owner_id, version: number, from });
  return presentWand(wand);
}

export async function pauseWand(ctx: Ctx, id: string) {
  const wand = await requireWand(ctx, id);
  await ctx.lock(`wand:${id}`);
  wandMachine.move(wand.status, 'pause');
  const changes = { status: 'paused' as const, status_reason: null, revision: wand.revision + 1 };
  await ctx.db.wands.update(changes, { where: { id } });
  Object.assign(wand, changes);
  withdrawSchedules(ctx, wand);
  ctx.events.stage('core.wands.wand.paused', { wand_id: id, name: wand.name, owner_id: wand.owner_id });
  return presentWand(wand);
}

/** The version a run pins. */
export async function versionOf(ctx: AnyCtx, wandId: string, number: number): Promise<WandVersion> {
  const version = await ctx.db.versions.findOne({ where: { wand_id: wandId, number } });
  if (!version) throw new NotFoundError(`Version ${number} of wand ${wandId} not found`);
  return version;
}

/**
 * Starts a run of the wand's active version (or returns the run this source already started:
 * the broker's event id, a webhook call, a rerun make a run once only) and moves it on.
 */
export async function startRun(ctx: AnyCtx, wand: Wand, trigger: Trigger, sourceKey: string, input: Record<string, unknown>, options: { rerunOf?: Run; fromStep?: number } = {}): Promise<{ run: Run; created: boolean }> {
  await ctx.lock(`run:${wand.id}:${sourceKey}`);
  const existing = await ctx.db.runs.findOne({ where: { wand_id: wand.id, source_key: sourceKey } });
  if (existing) return { run: existing, created: false };
  const number = options.rerunOf?.version ?? wand.version!;
  const version = await versionOf(ctx, wand.id, number);
  const run = await ctx.db.runs.create({
    wand_id: wand.id, version: number, status: 'running', trigger_id: trigger.id, trigger_kind: trigger.type, source_key: sourceKey, input,
    vars: options.rerunOf?.vars ?? {}, next_step: options.fromStep ?? 0, rerun_of: options.rerunOf?.id ?? null, microns: 0, attempt: 0, dry_run: false,
  });
  return { run: await advance(ctx, wand, run, version.steps, version.scopes), created: true };
}

/** A dry run: the draft's steps on a stored run's input (or the given one), side effects stubbed, nothing metered. */
export async function dryRun(ctx: Ctx, id: string, input: { run_id?: string; input?: Record<string, unknown> }) {
  const wand = await requireWand(ctx, id);
  let replayed: Record<string, unknown> = input.input ?? {};
  let triggerId = 'dry';
  if (input.run_id) {
    const stored = await ctx.db.runs.findOne({ where: { id: input.run_id, wand_id: id } });
    if (!stored) throw new InvalidError(`run_id: run ${input.run_id} is not a run of wand ${id}`, { field: 'run_id' });
    replayed = stored.input;
    triggerId = stored.trigger_id;
  }
  const run = await ctx.db.runs.create({ wand_id: id, version: 0, status: 'running', dry_run: true, trigger_id: triggerId, trigger_kind: 'dry_run', source_key: `dry:${crypto.randomUUID()}`, input: replayed, vars: {}, next_step: 0, microns: 0, attempt: 0 });
  return advance(ctx, wand, run, wand.steps as Step[], wand.scopes);
}

/** A manual run with a record's MRN (the per-app "AI buttons"): the owner, or an admin, starts it. */
export async function manualRun(ctx: Ctx, id: string, input: { trigger_id?: string; record_mrn?: string }) {
  const wand = await requireWand(ctx, id);
  if (wand.status !== 'active') throw new ConflictError(`Wand ${id} is ${wand.status}: only an active wand runs`);
  const version = await versionOf(ctx, id, wand.version!);
  const manual = version.triggers.filter((trigger) => trigger.type === 'manual' && (input.trigger_id === undefined || trigger.id === input.trigger_id));
  if (manual.length === 0) throw new InvalidError(`trigger_id: version ${wand.version} of wand ${id} has no manual trigger${input.trigger_id ? ` ${input.trigger_id}` : ''}`, { field: 'trigger_id' });
  const trigger = manual[0];
  if (trigger.record_type && input.record_mrn) {
    const [app, type] = trigger.record_type.split(':');
    if (!input.record_mrn.startsWith(`mrn:${app}:${type}:`)) throw new InvalidError(`record_mrn: trigger ${trigger.id} takes a ${trigger.record_type} record (mrn:${app}:${type}:...)`, { field: 'record_mrn' });
  }
  if (trigger.record_type && !input.record_mrn) throw new InvalidError(`record_mrn: trigger ${trigger.id} takes a ${trigger.record_type} record`, { field: 'record_mrn' });
  const { run } = await startRun(ctx, wand, trigger, `manual:${crypto.randomUUID()}`, { type: 'manual', record_mrn: input.record_mrn ?? null, by: ctx.member.id });
  return run;
}
