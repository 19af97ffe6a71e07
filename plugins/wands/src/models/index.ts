import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** A wand's life: draft → active ⇄ paused; suspended when the platform stops it (its owner's grant failed). */
export const WAND_STATUSES = ['draft', 'active', 'paused', 'suspended'] as const;
export type WandStatus = (typeof WAND_STATUSES)[number];

/** A run's life: running, waiting (a delay or a retry), then completed, failed or stopped (the grant failed). */
export const RUN_STATUSES = ['running', 'waiting', 'completed', 'failed', 'stopped'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const STEP_STATUSES = ['succeeded', 'failed', 'waiting', 'stopped', 'stubbed'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** A trigger as stored: its kind's fields, and an id stable across edits (`t1`, `t2`, ...). */
export interface Trigger {
  id: string;
  type: 'event' | 'cron' | 'manual' | 'webhook';
  action?: string;
  filter?: string;
  cron?: string;
  timezone?: string;
  record_type?: string;
}

/** A step as stored (see services/definition.ts for each type's fields). */
export interface Step {
  type: 'transform' | 'branch' | 'delay' | 'api' | 'ai' | 'notify' | 'loop';
  name?: string;
  retries?: number;
  [field: string]: unknown;
}

export const wands = defineModel('wands', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  /** The member the wand acts as. */
  owner_id: column.uuid(),
  status: column.enum(WAND_STATUSES, 20),
  /** Why it is paused by the platform (an overrun) or suspended. */
  status_reason: column.string(500).nullable(),
  /** The owner when it was suspended: reactivating needs another owner (a reassignment). */
  suspended_owner_id: column.uuid().nullable(),
  triggers: column.json<Trigger[]>(),
  steps: column.json<Step[]>(),
  /** The permission keys the wand may use: a subset of its owner's, re-checked at every step. */
  scopes: column.json<string[]>(),
  /** The version frozen at the last activation (null: never activated). */
  version: column.integer().nullable(),
  revision: column.integer().default(1),
  created_by: column.uuid(),
});
export type Wand = DeclaredRow<typeof wands>;

/** What an activation froze: runs execute it, whatever the wand's draft becomes. */
export const versions = defineModel('wand_versions', {
  id: column.uuid().primaryKey().defaultRandom(),
  wand_id: column.uuid(),
  number: column.integer(),
  triggers: column.json<Trigger[]>(),
  steps: column.json<Step[]>(),
  scopes: column.json<string[]>(),
  activated_by: column.uuid(),
});
export type WandVersion = DeclaredRow<typeof versions>;

/** An inbound webhook's secret: only its SHA-256 is kept (the URL is shown once). */
export const webhookSecrets = defineModel('webhook_secrets', {
  id: column.uuid().primaryKey().defaultRandom(),
  wand_id: column.uuid(),
  trigger_id: column.string(40),
  token_hash: column.string(64),
});

export const runs = defineModel('runs', {
  id: column.uuid().primaryKey().defaultRandom(),
  wand_id: column.uuid(),
  version: column.integer(),
  status: column.enum(RUN_STATUSES, 20),
  dry_run: column.boolean().default(false),
  trigger_id: column.string(40),
  trigger_kind: column.string(20),
  /** What makes a run once-only: the broker's event id, a webhook delivery, a rerun. */
  source_key: column.string(200),
  /** The trigger's input (the event, the record, the webhook body). */
  input: column.json<Record<string, unknown>>(),
  /** What steps stored (`as`). */
  vars: column.json<Record<string, unknown>>(),
  next_step: column.integer().default(0),
  attempt: column.integer().default(0),
  error: column.string(1000).nullable(),
  rerun_of: column.uuid().nullable(),
  microns: column.bigint().default(0),
  finished_at: column.date().nullable(),
});
export type Run = DeclaredRow<typeof runs>;

/** One line of a run's log. */
export const runSteps = defineModel('run_steps', {
  id: column.uuid().primaryKey().defaultRandom(),
  run_id: column.uuid(),
  position: column.integer(),
  step: column.integer(),
  type: column.string(20),
  status: column.enum(STEP_STATUSES, 20),
  attempt: column.integer().default(1),
  input: column.json<unknown>().nullable(),
  output: column.json<unknown>().nullable(),
  error: column.string(1000).nullable(),
  microns: column.bigint().default(0),
});
export type RunStep = DeclaredRow<typeof runSteps>;

/** A metered use: a step, or AI tokens. */
export const usage = defineModel('usage', {
  id: column.uuid().primaryKey().defaultRandom(),
  wand_id: column.uuid(),
  run_id: column.uuid(),
  kind: column.enum(['step', 'ai_tokens'] as const, 20),
  quantity: column.integer(),
  microns: column.bigint(),
  /** `YYYY-MM` (UTC): the allowance's period. */
  period: column.string(7),
  dedupe_key: column.string(200),
});

export const models = { wands, versions, webhookSecrets, runs, runSteps, usage };
export type Models = typeof models;
