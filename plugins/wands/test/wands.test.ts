import test from 'ava';
import { ok, startWorld, type TestMember, type World } from '@wpk/testing';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import app from '../src/index.js';

const OTHER_APPS = ['crm', 'tasks'].map((slug) => fileURLToPath(new URL(`../../${slug}`, import.meta.url)));

const READ = 'wands.wands.read';
const MANAGE = 'wands.wands.manage';
const ADMIN = 'wands.all_wands.manage';

let world: World;
/** The chat-completions requests the local model received (it stands in for the OpenAI-compatible API). */
const prompts: Array<{ model: string; messages: Array<{ role: string; content: string }> }> = [];
let model: http.Server;
let ann: TestMember;
let bob: TestMember;
let admin: TestMember;

/** A deal.won payload as the CRM emits it. */
const deal = (title: string, amount = '1200.00') => {
  const id = crypto.randomUUID();
  return { deal_id: id, deal_mrn: `mrn:crm:deal:${id}`, title, pipeline_id: '00000000-0000-4000-8000-0000000000a1', stage_id: '00000000-0000-4000-8000-0000000000a2', amount, currency: 'EUR', lines: [] };
};

let cursor = 0;
/** The app's events since the last call (the platform keeps them, so delayed ones can still be delivered when due). */
const take = () => {
  const events = world.eventsSince(cursor).map(([action, payload]) => ({ action, payload }));
  cursor = world.mark();
  return events;
};
const runsOf = async (member: TestMember, wandId: string) => ok(await member.get(`/wands/${wandId}/runs`)) as Array<Record<string, unknown>>;
const settings = (values: Record<string, unknown>) => world.owner.put('/apps/wands/settings', { step_microns: 1000, token_microns: 2, monthly_allowance: 10_000_000, plan_allowances: {}, ...values });

test.before(async () => {
  model = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      prompts.push({ model: body.model, messages: body.messages });
      const answer = { id: 'chatcmpl-1', object: 'chat.completion', model: body.model, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'A renewal worth 1200 EUR.' } }], usage: { prompt_tokens: 40, completion_tokens: 17, total_tokens: 57 } };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  const ai = { baseUrl: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`, model: 'local-test' };
  world = await startWorld({ ai, app, subdomain: 'wands', apps: OTHER_APPS, firstParty: ['wands', 'crm', 'tasks'], clock: new Date('2026-03-02T09:00:00.000Z') });
  admin = await world.member([READ, MANAGE, ADMIN]);
  [ann, bob] = await world.members(2, [READ, MANAGE]);
  cursor = world.mark();
});
test.after.always(async () => {
  await world?.close();
  model?.close();
});

test.serial('a wand: made as a draft, bad steps are a 400 naming steps[i].field, the state machine, activation freezes a version', async (t) => {
  const bad: Array<[unknown, string, string]> = [
    [[{ type: 'transform', expression: 'a +', as: 'x' }], 'steps[0].expression', 'steps[0].expression: is not a valid JSONata expression'],
    [[{ type: 'transform', expression: '1', as: 'x' }, { type: 'delay', seconds: 0 }], 'steps[1].seconds', 'steps[1].seconds: must be an integer from 1 to 2592000'],
    [[{ type: 'teleport' }], 'steps[0].type', 'steps[0].type: must be one of transform, branch, delay, api, ai, notify, loop'],
    [[{ type: 'branch', condition: 'true', then: 0 }], 'steps[0].then', "steps[0].then: must be a later step's index (1 to 0) or 1 (the end)"],
    [[{ type: 'loop', over: '[1,2]', as: 'n', max: 500, steps: [] }], 'steps[0].max', 'steps[0].max: must be an integer from 1 to 100'],
    [[{ type: 'loop', over: '[1,2]', as: 'n', steps: [{ type: 'delay', seconds: 5 }] }], 'steps[0].steps[0].type', 'steps[0].steps[0].type: must be one of transform, ai, notify'],
    [[{ type: 'notify', subject: 'Hi', message: '"x"', to: 'everyone' }], 'steps[0].to', 'steps[0].to: is not a field of a notify step'],
  ];
  for (const [steps, field, error] of bad) {
    const answer = await ann.post('/wands', { name: 'Bad', steps });
    t.is(answer.status, 400, field);
    t.is(answer.body.field, field);
    t.true(String(answer.body.error).startsWith(error), String(answer.body.error));
  }
  const badCron = await ann.post('/wands', { name: 'Bad', triggers: [{ type: 'cron', cron: 'every day' }] });
  t.is(badCron.status, 400);
  t.is(badCron.body.field, 'triggers[0].cron');
  const badAction = await ann.post('/wands', { name: 'Bad', triggers: [{ type: 'event', action: 'core.crm.deal.teleported' }] });
  t.is(badAction.body.field, 'triggers[0].action');
  const notHeld = await ann.post('/wands', { name: 'Bad', scopes: ['wands.all_wands.manage'] });
  t.is(notHeld.status, 400);
  t.deepEqual(notHeld.body, { error: 'scopes: the owner does not hold wands.all_wands.manage', field: 'scopes' });
  t.deepEqual(await world.query('SELECT count(*)::int AS n FROM app_wands.wands'), [{ n: 0 }]);

  const made = ok(await ann.post('/wands', {
    name: 'Won deals',
    triggers: [{ type: 'event', action: 'core.crm.deal.won', filter: "$number(payload.amount) >= 1000" }],
    steps: [{ type: 'transform', expression: 'trigger.payload.title', as: 'title' }],
    scopes: [READ],
  }));
  t.like(made, { name: 'Won deals', status: 'draft', version: null, owner_id: ann.id, scopes: [READ] });
  t.deepEqual(made.triggers, [{ id: 't1', type: 'event', action: 'core.crm.deal.won', filter: '$number(payload.amount) >= 1000' }]);
  t.is((await bob.get(`/wands/${made.id}`)).status, 404);
  t.is(ok(await admin.get(`/wands/${made.id}`)).id, made.id);
  const paused = await ann.post(`/wands/${made.id}/pause`);
  t.is(paused.status, 409);
  t.is(paused.body.error, 'Cannot pause a wand in state draft: pause moves from active to paused');
  t.deepEqual(take(), []);

  const active = ok(await ann.post(`/wands/${made.id}/activate`));
  t.like(active, { status: 'active', version: 1 });
  t.deepEqual(take(), [{ action: 'core.wands.wand.activated', payload: { wand_id: made.id, name: 'Won deals', owner_id: ann.id, version: 1, from: 'draft' } }]);
  // The draft changes; the active version does not until the next activation.
  ok(await ann.patch(`/wands/${made.id}`, { steps: [{ type: 'transform', expression: '"changed"', as: 'title' }] }));
  t.is((await ann.post(`/wands/${made.id}/activate`)).status, 409);
  ok(await ann.post(`/wands/${made.id}/pause`));
  t.deepEqual(take(), [{ action: 'core.wands.wand.paused', payload: { wand_id: made.id, name: 'Won deals', owner_id: ann.id } }]);
  ok(await ann.patch(`/wands/${made.id}`, { steps: [{ type: 'transform', expression: 'trigger.payload.title', as: 'title' }, { type: 'transform', expression: "{'api_token': 'secret-value', 'title': vars.title}", as: 'out' }] }));
  t.like(ok(await ann.post(`/wands/${made.id}/activate`)), { status: 'active', version: 2 });
  take();
  t.deepEqual((ok(await ann.get('/wands')) as Array<{ id: string }>).map((wand) => wand.id), [made.id]);
  t.deepEqual(ok(await bob.get('/wands')), []);
});

test.serial('an event trigger: the filter decides, a run pins its version, logs each step with secrets redacted, and one broker event id makes one run', async (t) => {
  const [wand] = ok(await ann.get('/wands')) as Array<{ id: string }>;
  await world.deliver('core.crm.deal.won', deal('Small deal', '10.00'));
  t.deepEqual(await runsOf(ann, wand.id), []);
  const deliveryId = crypto.randomUUID();
  await world.deliver('core.crm.deal.won', deal('Acme renewal'), { deliveryId });
  await world.deliver('core.crm.deal.won', deal('Acme renewal'), { deliveryId });
  const runs = await runsOf(ann, wand.id);
  t.is(runs.length, 1);
  const run = ok(await ann.get(`/wands/runs/${runs[0].id}`));
  t.like(run, { status: 'completed', version: 2, trigger_id: 't1', trigger_kind: 'event', microns: 2000, next_step: 2, dry_run: false });
  t.deepEqual(run.vars, { title: 'Acme renewal', out: { api_token: 'secret-value', title: 'Acme renewal' } });
  t.deepEqual(run.steps.map((step: Record<string, unknown>) => [step.position, step.step, step.status, step.output]), [
    [1, 0, 'succeeded', 'Acme renewal'],
    [2, 1, 'succeeded', { api_token: '[redacted]', title: 'Acme renewal' }],
  ]);
  t.deepEqual(await world.query("SELECT count(*)::int AS n FROM app_wands.run_steps WHERE output::text LIKE '%secret-value%'"), [{ n: 0 }]);
  const events = take();
  t.deepEqual(events.map((event) => event.action), ['core.wands.run.completed', 'core.wands.usage.recorded']);
  t.deepEqual(events[1].payload, { wand_id: wand.id, run_id: run.id, period: '2026-03', steps: 2, ai_tokens: 0, microns: 2000, period_microns: 2000 });
});

test.serial('rerun from a step: on the pinned version, once per run and step', async (t) => {
  const [wand] = ok(await ann.get('/wands')) as Array<{ id: string }>;
  const [first] = await runsOf(ann, wand.id);
  const again = ok(await ann.post(`/wands/runs/${first.id}/rerun`, { from_step: 1 }));
  t.like(again, { status: 'completed', version: 2, rerun_of: first.id, microns: 1000 });
  t.deepEqual(again.steps.map((step: Record<string, unknown>) => step.step), [1]);
  t.deepEqual(take().map((event) => event.action), ['core.wands.run.completed', 'core.wands.usage.recorded']);
  const same = ok(await ann.post(`/wands/runs/${first.id}/rerun`, { from_step: 1 }));
  t.is(same.id, again.id);
  t.deepEqual(take(), []);
  t.is((await runsOf(ann, wand.id)).length, 2);
  const bad = await ann.post(`/wands/runs/${first.id}/rerun`, { from_step: 7 });
  t.deepEqual([bad.status, bad.body], [400, { error: 'from_step: version 2 has steps 0 to 1', field: 'from_step' }]);
  t.is((await bob.post(`/wands/runs/${first.id}/rerun`, {})).status, 404);
});

test.serial('a dry run replays a stored run with side effects stubbed and nothing metered', async (t) => {
  const [wand] = ok(await ann.get('/wands')) as Array<{ id: string }>;
  const [stored] = (await runsOf(ann, wand.id)).slice(-1);
  ok(await ann.patch(`/wands/${wand.id}`, { steps: [{ type: 'transform', expression: 'trigger.payload.title', as: 'title' }, { type: 'delay', seconds: 3600 }, { type: 'notify', subject: 'Deal won', message: '"Won: " & vars.title' }] }));
  const before = await world.query('SELECT coalesce(sum(microns), 0)::int AS n FROM app_wands.usage');
  const dry = ok(await ann.post(`/wands/${wand.id}/dry-runs`, { run_id: stored.id }));
  t.like(dry, { status: 'completed', dry_run: true, version: 0, microns: 0 });
  t.deepEqual(dry.steps.map((step: Record<string, unknown>) => [step.type, step.status]), [['transform', 'succeeded'], ['delay', 'stubbed'], ['notify', 'stubbed']]);
  t.deepEqual(dry.steps[2].output, { to: ann.id, subject: 'Deal won', message: 'Won: Acme renewal' });
  t.deepEqual(await world.query('SELECT coalesce(sum(microns), 0)::int AS n FROM app_wands.usage'), before);
  t.deepEqual(take(), []);
  t.deepEqual(await world.platform.drainMail(), []);
  const other = await ann.post(`/wands/${wand.id}/dry-runs`, { run_id: crypto.randomUUID() });
  t.is(other.status, 400);
  t.is(other.body.field, 'run_id');
});

test.serial('the owner removed between two steps: the run stops at the next step and the wand is suspended until reassigned', async (t) => {
  const carl = await world.member([READ, MANAGE]);
  const made = ok(await carl.post('/wands', {
    name: 'Follow up',
    triggers: [{ type: 'manual', record_type: 'crm:deal' }],
    steps: [{ type: 'transform', expression: 'trigger.record_mrn', as: 'deal' }, { type: 'delay', seconds: 600 }, { type: 'transform', expression: '"after"', as: 'late' }],
    scopes: [MANAGE],
  }));
  ok(await carl.post(`/wands/${made.id}/activate`));
  const wrong = await carl.post(`/wands/${made.id}/runs`, { record_mrn: 'mrn:tasks:task:1' });
  t.deepEqual([wrong.status, wrong.body.field], [400, 'record_mrn']);
  const run = ok(await carl.post(`/wands/${made.id}/runs`, { record_mrn: 'mrn:crm:deal:42' }));
  t.like(run, { status: 'waiting', next_step: 2 });
  t.deepEqual(run.steps.map((step: Record<string, unknown>) => [step.step, step.status]), [[0, 'succeeded'], [1, 'waiting']]);
  take();
  ok(await world.owner.delete(`/members/${carl.id}`));
  world.platform.clock.advance({ minutes: 11 });
  const due = await world.platform.deliverDue(world.workspace);
  t.true(due.some((one) => one.event.action === 'core.wands.run.scheduled' && one.outcomes.wands === 'handled'));
  const stopped = ok(await admin.get(`/wands/runs/${run.id}`));
  t.like(stopped, { status: 'stopped', error: 'The owner is no longer a member of the workspace', next_step: 2 });
  t.deepEqual(stopped.steps.map((step: Record<string, unknown>) => [step.step, step.status]), [[0, 'succeeded'], [1, 'waiting'], [2, 'stopped']]);
  t.is(stopped.vars.late, undefined);
  const suspended = ok(await admin.get(`/wands/${made.id}`));
  t.like(suspended, { status: 'suspended', status_reason: 'The owner is no longer a member of the workspace' });
  t.deepEqual(take().filter((event) => event.action === 'core.wands.wand.suspended'), [{ action: 'core.wands.wand.suspended', payload: { wand_id: made.id, name: 'Follow up', owner_id: carl.id, from: 'active', reason: 'The owner is no longer a member of the workspace' } }]);
  t.deepEqual((ok(await admin.get('/wands?status=suspended')) as Array<{ id: string }>).map((wand) => wand.id), [made.id]);
  const notYet = await admin.post(`/wands/${made.id}/activate`);
  t.is(notYet.status, 409);
  t.is((await ann.patch(`/wands/${made.id}`, { owner_id: ann.id })).status, 404);
  t.like(ok(await admin.patch(`/wands/${made.id}`, { owner_id: bob.id })), { owner_id: bob.id, status: 'suspended' });
  t.like(ok(await admin.post(`/wands/${made.id}/activate`)), { status: 'active', version: 2, status_reason: null });
});

test.serial('a role change that takes a scope away suspends the wand at its next step', async (t) => {
  const dana = await world.member([READ, MANAGE]);
  const made = ok(await dana.post('/wands', { name: 'Scoped', triggers: [{ type: 'manual' }], steps: [{ type: 'delay', seconds: 60 }, { type: 'transform', expression: '1', as: 'one' }], scopes: [MANAGE] }));
  ok(await dana.post(`/wands/${made.id}/activate`));
  const run = ok(await dana.post(`/wands/${made.id}/runs`, {}));
  const roles = await world.query<{ role_id: string }>('SELECT role_id::text AS role_id FROM platform.member_roles WHERE member_id = :id', { id: dana.id });
  const lesser = await world.workspace.role('Readers only', { wands: [READ] });
  await world.query('UPDATE platform.member_roles SET role_id = :lesser WHERE member_id = :id AND role_id = :old', { lesser, id: dana.id, old: roles[0].role_id });
  world.platform.clock.advance({ minutes: 2 });
  await world.platform.deliverDue(world.workspace);
  t.like(ok(await admin.get(`/wands/runs/${run.id}`)), { status: 'stopped', error: `The owner no longer holds ${MANAGE}` });
  t.like(ok(await admin.get(`/wands/${made.id}`)), { status: 'suspended', status_reason: `The owner no longer holds ${MANAGE}` });
});

test.serial('microns: each step costs the set price, sums are exact, an overrun pauses the wand with a notice', async (t) => {
  const used = Number((await world.query<{ n: number }>('SELECT coalesce(sum(microns), 0)::bigint AS n FROM app_wands.usage'))[0].n);
  ok(await settings({ step_microns: 333, monthly_allowance: used + 333 * 3 }));
  const made = ok(await bob.post('/wands', { name: 'Counter', triggers: [{ type: 'manual' }], steps: [{ type: 'transform', expression: '1', as: 'a' }, { type: 'transform', expression: '2', as: 'b' }] }));
  ok(await bob.post(`/wands/${made.id}/activate`));
  take();
  t.like(ok(await bob.post(`/wands/${made.id}/runs`, {})), { status: 'completed', microns: 666 });
  const overrun = ok(await bob.post(`/wands/${made.id}/runs`, {}));
  t.like(overrun, { status: 'failed', microns: 333, error: "The workspace's micron allowance for this month is used up" });
  t.like(ok(await bob.get(`/wands/${made.id}`)), { status: 'paused', status_reason: "The workspace's micron allowance for this month is used up" });
  const actions = take().map((event) => event.action);
  t.deepEqual(actions, ['core.wands.run.completed', 'core.wands.usage.recorded', 'core.wands.run.failed', 'core.wands.wand.paused', 'core.wands.usage.recorded']);
  const mails = await world.platform.drainMail();
  t.true(mails.some((mail) => mail.subject === 'Wand paused: Counter'));
  const usage = ok(await bob.get('/wands/usage'));
  t.like(usage, { period: '2026-03', microns: used + 999, allowance: used + 999, remaining: 0 });
  t.deepEqual(usage.by_wand.find((row: { wand_id: string }) => row.wand_id === made.id), { wand_id: made.id, microns: 999 });
  // Every row the allowance counts was recorded to the platform in the same unit of work, under its
  // key: the platform's ledger holds exactly the app's sums, and GET /plan shows what the next billing run bills.
  const sums = `SELECT kind, sum(microns)::bigint::text AS microns FROM app_wands.usage GROUP BY kind ORDER BY kind`;
  const own = await world.query<{ kind: string; microns: string }>(sums);
  t.deepEqual(
    await world.query("SELECT CASE meter WHEN 'steps' THEN 'step' ELSE meter END AS kind, sum(microns)::bigint::text AS microns FROM platform.metered_usage WHERE app = 'wands' GROUP BY meter ORDER BY 1"),
    own,
  );
  t.deepEqual(await world.query("SELECT count(*)::int AS n FROM app_wands.usage u WHERE NOT EXISTS (SELECT 1 FROM platform.metered_usage m WHERE m.app = 'wands' AND m.idempotency_key = u.dedupe_key AND m.microns = u.microns)"), [{ n: 0 }]);
  const metered = ok(await world.owner.get('/plan')).metered;
  t.deepEqual(metered.lines.map((line: { meter: string; microns: number }) => [line.meter, String(line.microns)]), own.map((row) => [row.kind === 'step' ? 'steps' : row.kind, row.microns]).sort());
  ok(await settings({}));
});

test.serial('a webhook trigger: the secret path is shown once, only its hash is kept; a cron trigger schedules its firing', async (t) => {
  const made = ok(await bob.post('/wands', { name: 'Hooked', triggers: [{ type: 'webhook' }, { type: 'cron', cron: '0 8 * * 1' }], steps: [{ type: 'transform', expression: 'trigger.body.n * 2', as: 'double' }] }));
  const path = made.webhooks.t1 as string;
  t.regex(path, /^\/wands\/webhooks\/[A-Za-z0-9_-]{32}$/);
  t.is(ok(await bob.get(`/wands/${made.id}`)).webhooks, undefined);
  const token = path.split('/').pop()!;
  t.deepEqual(await world.query('SELECT count(*)::int AS n FROM app_wands.webhook_secrets WHERE token_hash = :token', { token }), [{ n: 0 }]);
  t.is((await world.platform.workspace('hooks')).id.length, 36);
  const anonymous = world.workspace.anonymous;
  t.is((await anonymous.post(path, { n: 1 })).status, 409);
  ok(await bob.post(`/wands/${made.id}/activate`));
  const fired = take().find((event) => event.action === 'core.wands.cron.fired');
  t.deepEqual(fired?.payload, { wand_id: made.id, version: 1, trigger_id: 't2', at: '2026-03-09T08:00:00.000Z' });
  const called = ok(await anonymous.post(path, { n: 21 }, { 'x-request-id': 'abc-1' }));
  t.like(called, { status: 'completed', duplicate: false });
  t.like(ok(await anonymous.post(path, { n: 21 }, { 'x-request-id': 'abc-1' })), { run_id: called.run_id, duplicate: true });
  t.deepEqual(ok(await bob.get(`/wands/runs/${called.run_id}`)).vars, { double: 42 });
  t.is((await anonymous.post('/wands/webhooks/xxxxxxxxxxxxxxxxxxxxxxxx', {})).status, 404);
  let deep: Record<string, unknown> = { n: 1 };
  for (let level = 0; level < 2000; level++) deep = { a: deep };
  const tooDeep = await anonymous.post(path, deep);
  t.is(tooDeep.status, 400);
  t.is(tooDeep.body.error, 'body must not nest more than 32 levels');
  world.platform.clock.advance({ days: 7 });
  await world.platform.deliverDue(world.workspace);
  const runs = await runsOf(bob, made.id);
  t.deepEqual(runs.map((run) => run.trigger_kind).sort(), ['cron', 'webhook']);
  t.is(ok(await bob.delete(`/wands/${made.id}`)).deleted, true);
});

test.serial('an AI step: the prompt goes through the platform model, its answer is stored, its tokens are metered at token_microns', async (t) => {
  const made = ok(await bob.post('/wands', {
    name: 'Summarise deals',
    triggers: [{ type: 'event', action: 'core.crm.deal.won' }],
    steps: [{ type: 'ai', system: 'Answer in one sentence.', prompt: '"Summarise the deal " & trigger.payload.title & " (" & trigger.payload.amount & " " & trigger.payload.currency & ")"', as: 'summary' }],
  }));
  ok(await bob.post(`/wands/${made.id}/activate`));
  take();
  const dry = ok(await bob.post(`/wands/${made.id}/dry-runs`, { input: { payload: { title: 'Dry', amount: '1.00', currency: 'EUR' } } }));
  t.deepEqual(dry.steps.map((step: Record<string, unknown>) => [step.status, step.output]), [['stubbed', { prompt: 'Summarise the deal Dry (1.00 EUR)' }]]);
  t.is(prompts.length, 0);
  await world.deliver('core.crm.deal.won', deal('Globex renewal'));
  t.deepEqual(prompts, [{ model: 'local-test', messages: [{ role: 'system', content: 'Answer in one sentence.' }, { role: 'user', content: 'Summarise the deal Globex renewal (1200.00 EUR)' }] }]);
  const [run] = await runsOf(bob, made.id);
  const read = ok(await bob.get(`/wands/runs/${run.id}`));
  t.like(read, { status: 'completed', microns: 1000 + 57 * 2 });
  t.deepEqual(read.vars, { summary: 'A renewal worth 1200 EUR.' });
  t.deepEqual(read.steps[0].output, { model: 'local-test', tokens: 57, text: 'A renewal worth 1200 EUR.' });
  t.is(read.steps[0].microns, 1114);
  // The first test's wand also runs on deal.won: this wand's run has its own usage event.
  const usage = take().find((event) => event.action === 'core.wands.usage.recorded' && event.payload.run_id === run.id);
  t.like(usage?.payload, { run_id: run.id, steps: 1, ai_tokens: 57, microns: 1114 });
  t.deepEqual(await world.query('SELECT kind, quantity, microns::int AS microns FROM app_wands.usage WHERE run_id = :run ORDER BY kind', { run: run.id }), [{ kind: 'ai_tokens', quantity: 57, microns: 114 }, { kind: 'step', quantity: 1, microns: 1000 }]);
});

test.serial('branch, capped loop and retries: a branch jumps forward, a loop repeats up to its cap, a failing step is retried later then fails the run', async (t) => {
  const made = ok(await bob.post('/wands', {
    name: 'Flow',
    triggers: [{ type: 'manual' }],
    steps: [
      { type: 'transform', expression: '[1, 2, 3]', as: 'items' },
      { type: 'branch', condition: '$count(vars.items) > 2', then: 3, else: 2 },
      { type: 'transform', expression: '"small"', as: 'size' },
      { type: 'loop', over: 'vars.items', as: 'n', max: 3, steps: [{ type: 'transform', expression: 'n * 10', as: 'last' }] },
      { type: 'transform', expression: '$error("the CRM said no")', as: 'never', retries: 1 },
    ],
  }));
  ok(await bob.post(`/wands/${made.id}/activate`));
  take();
  const run = ok(await bob.post(`/wands/${made.id}/runs`, {}));
  t.like(run, { status: 'waiting', next_step: 4, error: 'the CRM said no' });
  t.deepEqual(run.steps.map((step: Record<string, unknown>) => [step.step, step.status, step.output]), [
    [0, 'succeeded', [1, 2, 3]],
    [1, 'succeeded', { condition: true }],
    [3, 'succeeded', { iterations: 3, outputs: [10, 20, 30] }],
    [4, 'failed', null],
  ]);
  t.deepEqual(take().map((event) => event.action), ['core.wands.run.scheduled', 'core.wands.usage.recorded']);
  world.platform.clock.advance({ seconds: 31 });
  await world.platform.deliverDue(world.workspace);
  const failed = ok(await bob.get(`/wands/runs/${run.id}`));
  t.like(failed, { status: 'failed', error: 'Step 4 (transform) failed: the CRM said no' });
  t.deepEqual(failed.steps.slice(3).map((step: Record<string, unknown>) => [step.step, step.status, step.attempt]), [[4, 'failed', 1], [4, 'failed', 2]]);
  const events = take();
  t.deepEqual(events.map((event) => event.action), ['core.wands.run.failed', 'core.wands.usage.recorded']);
  t.like(events[0].payload, { run_id: run.id, error: 'Step 4 (transform) failed: the CRM said no', steps_run: 5, microns: 5000 });
});

test.serial('an api step calls the platform as the owner with the wand scopes: a won deal makes a task; a 4xx fails the step; a dry run makes no call; a lost scope suspends the wand', async (t) => {
  const tasksOf = () => world.query<{ title: string; creator_id: string }>("SELECT title, creator_id::text AS creator_id FROM app_tasks.tasks WHERE title LIKE 'Follow up%' ORDER BY created_at");
  await world.workspace.install('tasks', { access_policy: 'everyone' });
  const erin = await world.member([READ, MANAGE, 'tasks.tasks.create', 'tasks.tasks.read']);
  const step = { type: 'api', method: 'POST', path: '/tasks', body: "{'title': 'Follow up ' & trigger.payload.title, 'api_token': 'secret-value'}", as: 'task' };
  const made = ok(await erin.post('/wands', { name: 'Task per won deal', triggers: [{ type: 'event', action: 'core.crm.deal.won', filter: "payload.title = 'Initech'" }], steps: [step], scopes: ['tasks.tasks.create'] }));
  ok(await erin.post(`/wands/${made.id}/activate`));
  take();
  await world.deliver('core.crm.deal.won', deal('Initech'));
  const [run] = await runsOf(erin, made.id);
  const done = ok(await erin.get(`/wands/runs/${run.id}`));
  t.like(done, { status: 'completed', error: null });
  t.deepEqual(await tasksOf(), [{ title: 'Follow up Initech', creator_id: erin.id }]);
  t.like(done.vars.task.data, { title: 'Follow up Initech', creator_id: erin.id });
  t.deepEqual(done.steps.map((one: Record<string, unknown>) => [one.type, one.status, (one.output as { status: number }).status, (one.output as { payload: unknown }).payload, (one.output as { answer: { data: { creator_id: string } } }).answer.data.creator_id]), [['api', 'succeeded', 200, { title: 'Follow up Initech', api_token: '[redacted]' }, erin.id]]);
  t.deepEqual(await world.query("SELECT count(*)::int AS n FROM app_wands.run_steps WHERE output::text LIKE '%secret-value%'"), [{ n: 0 }]);
  // The Tasks app's event says an app made the call, for which run.
  const created = world.platform.events.filter((event) => event.action === 'core.tasks.task.created' && event.payload.title === 'Follow up Initech');
  t.deepEqual(created.map((event) => [event.emitter, event.metadata.via_app, event.metadata.via_note]), [['tasks', 'wands', `wand run ${run.id}`]]);

  // A dry run replays it with the call stubbed: no task.
  const dry = ok(await erin.post(`/wands/${made.id}/dry-runs`, { run_id: run.id }));
  t.deepEqual(dry.steps.map((one: Record<string, unknown>) => [one.status, one.output]), [['stubbed', { method: 'POST', path: '/tasks', payload: { title: 'Follow up Initech', api_token: '[redacted]' } }]]);
  t.is((await tasksOf()).length, 1);

  // The wand's scopes bound the call even where the owner holds more: the target's 403 is a failed step, logged.
  const narrow = ok(await erin.post('/wands', { name: 'Read-only wand', triggers: [{ type: 'manual' }], steps: [{ ...step, body: "{'title': 'Follow up narrow'}" }], scopes: ['tasks.tasks.read'] }));
  ok(await erin.post(`/wands/${narrow.id}/activate`));
  const refused = ok(await erin.post(`/wands/${narrow.id}/runs`, {}));
  t.like(refused, { status: 'failed', error: 'Step 0 (api) failed: POST /tasks answered 403: Missing permission: tasks.tasks.create' });
  t.deepEqual(refused.steps.map((one: Record<string, unknown>) => [one.status, one.error]), [['failed', 'POST /tasks answered 403: Missing permission: tasks.tasks.create']]);
  t.like(ok(await erin.get(`/wands/${narrow.id}`)), { status: 'active' });
  // The host is never the wand's to choose: a path naming one fails the step, and nothing is called.
  const elsewhere = ok(await erin.post('/wands', { name: 'Elsewhere', triggers: [{ type: 'manual' }], steps: [{ type: 'api', method: 'GET', path: '//other.localhost/tasks' }], scopes: ['tasks.tasks.read'] }));
  ok(await erin.post(`/wands/${elsewhere.id}/activate`));
  t.like(ok(await erin.post(`/wands/${elsewhere.id}/runs`, {})), { status: 'failed', error: "Step 0 (api) failed: ctx.platform.request: path must be a path of this workspace's API (/tasks), without a host" });
  t.is((await tasksOf()).length, 1);

  // The owner loses the scope: the next run stops before the call and the wand is suspended with the reason.
  const lesser = await world.workspace.role('Wands without tasks', { wands: [READ, MANAGE], tasks: ['tasks.tasks.read'] });
  const roles = await world.query<{ role_id: string }>('SELECT role_id::text AS role_id FROM platform.member_roles WHERE member_id = :id', { id: erin.id });
  await world.query('UPDATE platform.member_roles SET role_id = :lesser WHERE member_id = :id AND role_id = :old', { lesser, id: erin.id, old: roles[0].role_id });
  take();
  await world.deliver('core.crm.deal.won', deal('Initech'));
  const latest = (await runsOf(admin, made.id)).find((one) => one.id !== run.id)!;
  t.like(ok(await admin.get(`/wands/runs/${latest.id}`)), { status: 'stopped', error: 'The owner no longer holds tasks.tasks.create' });
  t.like(ok(await admin.get(`/wands/${made.id}`)), { status: 'suspended', status_reason: 'The owner no longer holds tasks.tasks.create' });
  t.is((await tasksOf()).length, 1);
});
