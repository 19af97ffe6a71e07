import jsonata from 'jsonata';
import type { AnyCtx } from '../kit.js';
import type { Run, Step, Wand } from '../models/index.js';
import { ownerGrantProblem, suspendWand, pauseForOverrun } from './grant.js';
import { periodMicrons, recordUsage, type UsageTally } from './usage.js';

/** A field name that holds a secret: `token`, `api_token`, `clientSecret`, `x-api-key` (not `tokens`, a count). */
const SECRET_KEY = /(^|[_-])(secret|token|password|passwd|authorization|api[_-]?key|cookie|credentials?)($|[_-])/i;
const isSecretKey = (key: string) => SECRET_KEY.test(key.replace(/([a-z0-9])([A-Z])/g, '$1_$2'));

/** A copy of `value` with every field whose name looks like a secret replaced by `[redacted]` (the run log never holds one). */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, isSecretKey(key) ? '[redacted]' : redact(inner, depth + 1)]));
}

/** Evaluates a JSONata expression against the run's scope (`trigger`, `vars`, and a loop's item). */
export async function evaluate(source: string, scope: Record<string, unknown>): Promise<unknown> {
  const result = await jsonata(source).evaluate(scope);
  // JSONata sequences are arrays with extra flags: a plain copy is what the log and vars keep.
  return result === undefined ? null : JSON.parse(JSON.stringify(result));
}

/** A step's outcome: what it stored, where to go next, or how long to wait. */
interface Outcome {
  output: unknown;
  next?: number;
  wait?: number;
  stubbed?: boolean;
}

class StepFailure extends Error {}

/** An api step's path with each `{expression}` part evaluated and escaped (a value cannot add a segment or a query). */
async function fillPath(template: string, scope: Record<string, unknown>): Promise<string> {
  let path = '';
  let rest = template;
  for (let open = rest.indexOf('{'); open >= 0; open = rest.indexOf('{')) {
    const close = rest.indexOf('}', open);
    if (close < 0) throw new StepFailure(`the path ${template} has an unclosed {`);
    const value = await evaluate(rest.slice(open + 1, close), scope);
    if (value === null || typeof value === 'object') throw new StepFailure(`the path part {${rest.slice(open + 1, close)}} is ${value === null ? 'empty' : 'not a text or number'}`);
    path += rest.slice(0, open) + encodeURIComponent(String(value));
    rest = rest.slice(close + 1);
  }
  return path + rest;
}

/** The `error` of a platform answer's body, else the body itself, short. */
const errorOf = (body: unknown) => (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : JSON.stringify(body ?? null)).slice(0, 500);

/** Records the AI tokens a step used (they were spent: recorded even past the allowance, which then stops the next step). */
type TokenMeter = (tokens: number) => Promise<void>;

async function executeStep(ctx: AnyCtx, wand: Wand, run: Run, step: Step, index: number, scope: Record<string, unknown>, meter: TokenMeter, scopes: readonly string[]): Promise<Outcome> {
  const vars = scope.vars as Record<string, unknown>;
  switch (step.type) {
    case 'transform': {
      const value = await evaluate(step.expression as string, scope);
      vars[step.as as string] = value;
      return { output: value };
    }
    case 'branch': {
      const value = await evaluate(step.condition as string, scope);
      const taken = Boolean(value);
      return { output: { condition: taken }, next: (taken ? step.then : step.else) as number };
    }
    case 'delay':
      if (run.dry_run) return { output: { seconds: step.seconds }, stubbed: true };
      return { output: { seconds: step.seconds, until: new Date(ctx.now().getTime() + (step.seconds as number) * 1000).toISOString() }, wait: step.seconds as number };
    case 'api': {
      // The owner's grant was read again just before this step (advance); the call itself is
      // judged by the platform's whole access chain as the owner narrowed to the wand's scopes.
      const method = step.method as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      const path = await fillPath(step.path as string, scope);
      const payload = step.body === undefined ? undefined : await evaluate(step.body as string, scope);
      const call = { method, path, ...(payload === undefined ? {} : { payload }) };
      if (run.dry_run) return { output: call, stubbed: true };
      if (!ctx.platform) throw new StepFailure('this platform lends no platform requests (ctx.platform)');
      let answer: { status: number; body: unknown };
      try {
        answer = await ctx.platform.request({ member: wand.owner_id, scopes, method, path, payload: payload ?? undefined, note: `wand run ${run.id}` });
      } catch (error) {
        throw new StepFailure((error as Error).message);
      }
      if (answer.status >= 400) throw new StepFailure(`${method} ${path} answered ${answer.status}: ${errorOf(answer.body)}`);
      if (step.as) vars[step.as as string] = answer.body;
      return { output: { ...call, status: answer.status, answer: answer.body } };
    }
    case 'ai': {
      const prompt = await evaluate(step.prompt as string, scope);
      const text = (typeof prompt === 'string' ? prompt : JSON.stringify(prompt)).slice(0, 100_000);
      if (!text) throw new StepFailure('the prompt is empty');
      if (run.dry_run) return { output: { prompt: text }, stubbed: true };
      if (!ctx.ai) throw new StepFailure('no language model is configured on this platform (AI_BASE_URL)');
      const messages = [...(step.system ? [{ role: 'system' as const, content: step.system as string }] : []), { role: 'user' as const, content: text }];
      let answer: { text: string; tokens: number };
      try {
        answer = await ctx.ai.complete(messages);
      } catch (error) {
        throw new StepFailure((error as Error).message);
      }
      await meter(answer.tokens);
      vars[step.as as string] = answer.text;
      return { output: { model: ctx.ai.model, tokens: answer.tokens, text: answer.text } };
    }
    case 'notify': {
      const message = await evaluate(step.message as string, scope);
      const text = typeof message === 'string' ? message : JSON.stringify(message);
      const owner = await ctx.members.get(wand.owner_id);
      if (!owner) throw new StepFailure('the owner is not a member');
      if (run.dry_run) return { output: { to: owner.id, subject: step.subject, message: text }, stubbed: true };
      ctx.mail.send({ to: owner.email, subject: step.subject as string, text: text.slice(0, 100_000) || '(empty)' });
      return { output: { to: owner.id, subject: step.subject, message: text } };
    }
    case 'loop': {
      const items = await evaluate(step.over as string, scope);
      const list = Array.isArray(items) ? items : items === null ? [] : [items];
      if (list.length > (step.max as number)) throw new StepFailure(`the loop would repeat ${list.length} times; its cap is ${step.max}`);
      const outputs: unknown[] = [];
      for (const item of list) {
        const inner = { ...scope, [step.as as string]: item };
        for (const [at, nested] of (step.steps as Step[]).entries()) outputs.push((await executeStep(ctx, wand, run, nested, at, inner, meter, scopes)).output);
      }
      return { output: { iterations: list.length, outputs } };
    }
    default:
      throw new StepFailure(`step type ${step.type} cannot run`);
  }
}

/** Seconds before retry `attempt` (1, 2, ...) of a failed step: 30 s, 60 s, 120 s, ... */
export const retryDelay = (attempt: number) => 30 * 2 ** (attempt - 1);

/**
 * Moves a run on from its next step until it ends, waits (a delay, a retry), or is stopped. Before
 * every step of a live run the owner's grant is read again (no cache): a removed owner or one who
 * lost a scope stops the run there and suspends the wand. Every live step costs microns; a step
 * the workspace's allowance cannot pay for pauses the wand (a notice to the owner) and fails the run.
 */
export async function advance(ctx: AnyCtx, wand: Wand, run: Run, steps: Step[], scopes: string[]): Promise<Run> {
  const save = async (fields: Partial<Run>) => {
    Object.assign(run, fields);
    await ctx.db.runs.update(fields, { where: { id: run.id } });
  };
  const tally: UsageTally = { steps: 0, tokens: 0, microns: 0 };
  let position = (await ctx.db.runSteps.count({ where: { run_id: run.id } })) + 1;
  const log = (step: number, type: string, status: 'succeeded' | 'failed' | 'waiting' | 'stopped' | 'stubbed', fields: { input?: unknown; output?: unknown; error?: string; microns?: number } = {}) =>
    ctx.db.runSteps.create({ run_id: run.id, position: position++, step, type, status, attempt: run.attempt + 1, input: redact(fields.input ?? null), output: redact(fields.output ?? null), error: fields.error ?? null, microns: fields.microns ?? 0 });
  const finish = async (status: 'completed' | 'failed' | 'stopped', error: string | null) => {
    await save({ status, error, finished_at: ctx.now() });
    if (!run.dry_run && status !== 'stopped') {
      const payload = { run_id: run.id, wand_id: wand.id, version: run.version, trigger_id: run.trigger_id, steps_run: await ctx.db.runSteps.count({ where: { run_id: run.id } }), microns: Number(run.microns) };
      if (status === 'completed') ctx.events.stage('core.wands.run.completed', payload);
      else ctx.events.stage('core.wands.run.failed', { ...payload, error: error ?? 'failed' });
    }
  };
  await save({ status: 'running' });
  try {
    while (run.next_step < steps.length) {
      const index = run.next_step;
      const step = steps[index];
      const scope = { trigger: run.input, vars: { ...run.vars } };
      if (!run.dry_run) {
        const problem = await ownerGrantProblem(ctx, wand.owner_id, scopes);
        if (problem) {
          await log(index, step.type, 'stopped', { error: problem });
          await finish('stopped', problem);
          await suspendWand(ctx, wand, problem);
          return run;
        }
        const charged = await recordUsage(ctx, wand, run, 'step', 1, `step:${run.id}:${position}`, tally);
        if (!charged) {
          const reason = "The workspace's micron allowance for this month is used up";
          await log(index, step.type, 'stopped', { error: reason });
          await finish('failed', reason);
          await pauseForOverrun(ctx, wand, reason);
          return run;
        }
      }
      let outcome: Outcome;
      let tokenMicrons = 0;
      try {
        outcome = await executeStep(ctx, wand, run, step, index, scope, async (tokens) => {
          tokenMicrons += tokens * ctx.settings.token_microns;
          await recordUsage(ctx, wand, run, 'ai_tokens', tokens, `tokens:${run.id}:${position}:${crypto.randomUUID()}`, tally, { force: true });
        }, scopes);
      } catch (error) {
        const message = (error instanceof StepFailure ? error.message : `${(error as Error).message ?? error}`).slice(0, 900);
        await log(index, step.type, 'failed', { error: message, microns: run.dry_run ? 0 : ctx.settings.step_microns });
        const attempt = run.attempt + 1;
        if (!run.dry_run && attempt <= (step.retries ?? 0)) {
          await save({ status: 'waiting', attempt, error: message });
          ctx.events.stage('core.wands.run.scheduled', { run_id: run.id, step: index, attempt }, {}, { deliverAt: new Date(ctx.now().getTime() + retryDelay(attempt) * 1000), dedupeKey: `run:${run.id}:${index}:${attempt}` });
          return run;
        }
        await finish('failed', `Step ${index} (${step.type}) failed: ${message}`);
        return run;
      }
      await log(index, step.type, outcome.stubbed ? 'stubbed' : outcome.wait ? 'waiting' : 'succeeded', { output: outcome.output, microns: run.dry_run ? 0 : ctx.settings.step_microns + tokenMicrons });
      const next = outcome.next ?? index + 1;
      await save({ vars: scope.vars, next_step: next, attempt: 0, error: null });
      if (outcome.wait) {
        await save({ status: 'waiting' });
        ctx.events.stage('core.wands.run.scheduled', { run_id: run.id, step: next, attempt: 0 }, {}, { deliverAt: new Date(ctx.now().getTime() + outcome.wait * 1000), dedupeKey: `run:${run.id}:${next}:0` });
        return run;
      }
    }
    await finish('completed', null);
    return run;
  } finally {
    if (tally.microns > 0 || tally.steps > 0) {
      const period = ctx.now().toISOString().slice(0, 7);
      ctx.events.stage('core.wands.usage.recorded', { wand_id: wand.id, run_id: run.id, period, steps: tally.steps, ai_tokens: tally.tokens, microns: tally.microns, period_microns: await periodMicrons(ctx, period) });
    }
  }
}
