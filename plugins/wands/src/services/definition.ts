import { Cron } from 'croner';
import jsonata from 'jsonata';
import { InvalidError } from '@wpk/sdk';
import type { Step, Trigger } from '../models/index.js';

/** The first-party catalog's actions a wand may be triggered by (the app subscribes to each). */
export const CATALOG_ACTIONS = [
  'core.crm.deal.won',
  'core.crm.deal.lost',
  'core.crm.lead.created',
  'core.tasks.task.created',
  'core.tasks.task.completed',
  'core.contacts.contact.created',
] as const;

export const TRIGGER_TYPES = ['event', 'cron', 'manual', 'webhook'] as const;
/** The step types of a wand; `api` is a platform call as the owner, with the wand's scopes (`ctx.platform.request`). */
export const STEP_TYPES = ['transform', 'branch', 'delay', 'api', 'ai', 'notify', 'loop'] as const;
/** Steps a loop may repeat (no delay, branch or loop inside a loop). */
export const LOOP_STEP_TYPES = ['transform', 'ai', 'notify'] as const;
export const API_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
export const MAX_STEPS = 50;
export const MAX_TRIGGERS = 10;
export const MAX_LOOP = 100;
export const MAX_DELAY_SECONDS = 30 * 24 * 3600;
export const MAX_RETRIES = 5;

const NAME = /^[a-z_][a-z0-9_]{0,39}$/;

const refuse = (field: string, message: string): never => {
  throw new InvalidError(`${field}: ${message}`, { field });
};

function text(value: unknown, field: string, max: number, required = true): string | undefined {
  if (value === undefined || value === null) return required ? refuse(field, 'is required') : undefined;
  if (typeof value !== 'string' || value.trim() === '') return refuse(field, 'must be a non-empty string');
  if (value.length > max) return refuse(field, `must be at most ${max} characters`);
  return value;
}

function expression(value: unknown, field: string, required = true): string | undefined {
  const source = text(value, field, 4000, required);
  if (source === undefined) return undefined;
  try {
    jsonata(source);
  } catch (error) {
    refuse(field, `is not a valid JSONata expression (${(error as { message?: string }).message ?? 'syntax error'})`);
  }
  return source;
}

function integer(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) refuse(field, `must be an integer from ${min} to ${max}`);
  return value as number;
}

function variable(value: unknown, field: string, required: boolean): string | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || !NAME.test(value)) refuse(field, 'must be a variable name (a-z, 0-9, _; at most 40 characters)');
  return value as string;
}

function allowOnly(step: Record<string, unknown>, field: string, allowed: readonly string[]): void {
  for (const key of Object.keys(step)) if (!allowed.includes(key)) refuse(`${field}.${key}`, `is not a field of a ${String(step.type)} step`);
}

const COMMON = ['type', 'name', 'retries'];

/** One step, checked and normalised; `index`/`count` bound a branch's jumps (forward only: no cycles). */
function checkStep(raw: unknown, field: string, index: number, count: number, allowed: readonly string[]): Step {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) refuse(field, 'must be an object');
  const step = raw as Record<string, unknown>;
  if (typeof step.type !== 'string' || !allowed.includes(step.type)) refuse(`${field}.type`, `must be one of ${allowed.join(', ')}`);
  const out: Step = { type: step.type as Step['type'] };
  if (step.name !== undefined) out.name = text(step.name, `${field}.name`, 200);
  if (step.retries !== undefined) out.retries = integer(step.retries, `${field}.retries`, 0, MAX_RETRIES);
  switch (step.type) {
    case 'transform':
      allowOnly(step, field, [...COMMON, 'expression', 'as']);
      out.expression = expression(step.expression, `${field}.expression`);
      out.as = variable(step.as, `${field}.as`, true);
      break;
    case 'branch':
      allowOnly(step, field, [...COMMON, 'condition', 'then', 'else']);
      out.condition = expression(step.condition, `${field}.condition`);
      for (const jump of ['then', 'else'] as const) {
        const target = step[jump] === undefined ? index + 1 : step[jump];
        if (typeof target !== 'number' || !Number.isInteger(target) || target <= index || target > count) refuse(`${field}.${jump}`, `must be a later step's index (${index + 1} to ${count - 1}) or ${count} (the end)`);
        out[jump] = target;
      }
      break;
    case 'delay':
      allowOnly(step, field, [...COMMON, 'seconds']);
      out.seconds = integer(step.seconds, `${field}.seconds`, 1, MAX_DELAY_SECONDS);
      break;
    case 'api':
      allowOnly(step, field, [...COMMON, 'method', 'path', 'body', 'as']);
      if (typeof step.method !== 'string' || !(API_METHODS as readonly string[]).includes(step.method)) refuse(`${field}.method`, `must be one of ${API_METHODS.join(', ')}`);
      out.method = step.method;
      out.path = text(step.path, `${field}.path`, 500);
      if (!/^\/[A-Za-z0-9_\-./{}$]*$/.test(out.path as string) || (out.path as string).includes('..')) refuse(`${field}.path`, 'must be a path of the workspace API (/tasks); {expression} parts are filled in');
      if (step.body !== undefined) out.body = expression(step.body, `${field}.body`);
      if (step.as !== undefined) out.as = variable(step.as, `${field}.as`, false);
      break;
    case 'ai':
      allowOnly(step, field, [...COMMON, 'system', 'prompt', 'as']);
      if (step.system !== undefined) out.system = text(step.system, `${field}.system`, 4000);
      out.prompt = expression(step.prompt, `${field}.prompt`);
      out.as = variable(step.as, `${field}.as`, true);
      break;
    case 'notify':
      allowOnly(step, field, [...COMMON, 'subject', 'message']);
      out.subject = text(step.subject, `${field}.subject`, 200);
      if (/[\r\n]/.test(out.subject as string)) refuse(`${field}.subject`, 'must be one line');
      out.message = expression(step.message, `${field}.message`);
      break;
    case 'loop': {
      allowOnly(step, field, [...COMMON, 'over', 'as', 'max', 'steps']);
      out.over = expression(step.over, `${field}.over`);
      out.as = variable(step.as, `${field}.as`, true);
      out.max = integer(step.max ?? MAX_LOOP, `${field}.max`, 1, MAX_LOOP);
      if (!Array.isArray(step.steps) || step.steps.length === 0 || step.steps.length > 10) refuse(`${field}.steps`, 'must be a list of 1 to 10 steps');
      out.steps = (step.steps as unknown[]).map((inner, at) => checkStep(inner, `${field}.steps[${at}]`, at, (step.steps as unknown[]).length, LOOP_STEP_TYPES));
      break;
    }
  }
  return out;
}

/** The steps of a wand, checked: a 400 names `steps[i].field`. */
export function checkSteps(raw: unknown): Step[] {
  if (!Array.isArray(raw)) return refuse('steps', 'must be a list');
  if (raw.length > MAX_STEPS) refuse('steps', `must have at most ${MAX_STEPS} steps`);
  return raw.map((step, index) => checkStep(step, `steps[${index}]`, index, raw.length, STEP_TYPES));
}

/** The triggers of a wand, checked; new ones get the next free id (`t1`, `t2`, ...), kept ones keep theirs. */
export function checkTriggers(raw: unknown, existing: readonly Trigger[] = []): Trigger[] {
  if (!Array.isArray(raw)) return refuse('triggers', 'must be a list');
  if (raw.length > MAX_TRIGGERS) refuse('triggers', `must have at most ${MAX_TRIGGERS} triggers`);
  let next = Math.max(0, ...existing.map((trigger) => Number(trigger.id.slice(1)) || 0)) + 1;
  const seen = new Set<string>();
  return raw.map((item, index) => {
    const field = `triggers[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) refuse(field, 'must be an object');
    const trigger = item as Record<string, unknown>;
    let id: string;
    if (trigger.id !== undefined) {
      if (typeof trigger.id !== 'string' || !existing.some((one) => one.id === trigger.id)) refuse(`${field}.id`, 'names no trigger of this wand (leave it out for a new one)');
      id = trigger.id as string;
      if (seen.has(id)) refuse(`${field}.id`, 'is listed twice');
    } else id = `t${next++}`;
    seen.add(id);
    if (typeof trigger.type !== 'string' || !(TRIGGER_TYPES as readonly string[]).includes(trigger.type)) refuse(`${field}.type`, `must be one of ${TRIGGER_TYPES.join(', ')}`);
    const out: Trigger = { id, type: trigger.type as Trigger['type'] };
    const only = (allowed: string[]) => {
      for (const key of Object.keys(trigger)) if (!['id', 'type', ...allowed].includes(key)) refuse(`${field}.${key}`, `is not a field of a ${out.type} trigger`);
    };
    if (out.type === 'event') {
      only(['action', 'filter']);
      if (typeof trigger.action !== 'string' || !(CATALOG_ACTIONS as readonly string[]).includes(trigger.action)) refuse(`${field}.action`, `must be one of ${CATALOG_ACTIONS.join(', ')}`);
      out.action = trigger.action as string;
      if (trigger.filter !== undefined) out.filter = expression(trigger.filter, `${field}.filter`);
    } else if (out.type === 'cron') {
      only(['cron', 'timezone']);
      out.cron = text(trigger.cron, `${field}.cron`, 100);
      if (trigger.timezone !== undefined) out.timezone = text(trigger.timezone, `${field}.timezone`, 60);
      try {
        new Cron(out.cron as string, { paused: true, timezone: out.timezone }).stop();
      } catch (error) {
        refuse(`${field}.cron`, `is not a valid cron schedule (${(error as Error).message})`);
      }
    } else if (out.type === 'manual') {
      only(['record_type']);
      if (trigger.record_type !== undefined) {
        out.record_type = text(trigger.record_type, `${field}.record_type`, 100);
        if (!/^[a-z][a-z0-9_]*:[a-z][a-z0-9_]*$/.test(out.record_type as string)) refuse(`${field}.record_type`, 'must be app:type, e.g. crm:deal');
      }
    } else only([]);
    return out;
  });
}

/** The next instant of a cron trigger after `from` (null: none). */
export function nextCron(trigger: Trigger, from: Date): Date | null {
  const cron = new Cron(trigger.cron!, { paused: true, timezone: trigger.timezone });
  const next = cron.nextRun(from);
  cron.stop();
  return next;
}

/** The scopes of a wand: permission keys (`app.resource.verb`), at most 50. */
export function checkScopes(raw: unknown): string[] {
  if (!Array.isArray(raw) || raw.length > 50) return refuse('scopes', 'must be a list of at most 50 permission keys');
  raw.forEach((key, index) => {
    if (typeof key !== 'string' || !/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*){2}$/.test(key)) refuse(`scopes[${index}]`, 'must be a permission key (app.resource.verb)');
  });
  return [...new Set(raw as string[])];
}
