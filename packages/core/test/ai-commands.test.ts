import test from 'ava';
import { body, type AppsTestRuntime } from './helpers/apps.js';
import { deskWorld, startDeskRuntime, type DeskWorld } from './helpers/ai.js';

// POST /ai/commands without a model configured: bounds, the layer-4 refusal, and the
// deterministic answer listing the matching records the caller may read, with links.

let env: AppsTestRuntime;
let world: DeskWorld;

const json = { 'content-type': 'application/json' };
const ask = (headers: Record<string, string>, payload: unknown) => env.runtime.server.inject({ method: 'POST', url: '/ai/commands', headers: { ...headers, ...json }, payload: payload as object });

test.before(async () => {
  env = await startDeskRuntime({ ai: null });
  world = await deskWorld(env, 'aidesk');
});

test.after.always(async () => {
  await env?.close();
});

test('bounds: app 1-64 and q 1-2000 are required', async (t) => {
  const headers = world.agent.headers();
  const cases: Array<[unknown, string, string]> = [
    [{ q: 'launch' }, 'app is required', 'app'],
    [{ app: '', q: 'launch' }, 'app is not allowed to be empty', 'app'],
    [{ app: 'd'.repeat(65), q: 'launch' }, 'app length must be less than or equal to 64 characters long', 'app'],
    [{ app: 'desk' }, 'q is required', 'q'],
    [{ app: 'desk', q: '' }, 'q is not allowed to be empty', 'q'],
    [{ app: 'desk', q: '   ' }, 'q is not allowed to be empty', 'q'],
    [{ app: 'desk', q: 'x'.repeat(2001) }, 'q length must be less than or equal to 2000 characters long', 'q'],
    [{ app: 7, q: 'launch' }, 'app must be a string', 'app'],
  ];
  for (const [payload, error, field] of cases) {
    const answer = await ask(headers, payload);
    t.is(answer.statusCode, 400, error);
    t.deepEqual(body(answer), { error, field });
  }
  t.is((await ask(headers, { app: 'desk', q: 'x'.repeat(2000) })).statusCode, 200);
});

test('a member who cannot open the app is refused exactly like layer 4, as search refuses them', async (t) => {
  for (const app of ['desk', 'vault', 'nosuchapp']) {
    const answer = await ask(world.outsider.headers(), { app, q: 'launch' });
    t.is(answer.statusCode, 403, app);
    t.deepEqual(body(answer), { error: "You don't have access to this app" });
  }
  const search = await env.runtime.server.inject({ method: 'GET', url: '/search?app=desk&q=launch', headers: world.outsider.headers() });
  t.is(search.statusCode, 403);
  t.deepEqual(body(search), { error: "You don't have access to this app" });
  const logged = env.logs.filter((line) => line.msg === 'access denied' && line.layer === 4 && line.app === 'desk');
  t.true(logged.length >= 1);
});

test('without a model the answer lists the matching records the caller may read, with links', async (t) => {
  const answer = await ask(world.agent.headers(), { app: 'desk', q: 'What is on the launch?' });
  t.is(answer.statusCode, 200);
  t.deepEqual(body(answer), {
    data: {
      app: 'desk',
      q: 'What is on the launch?',
      model: null,
      answer: '2 records in Desk match "What is on the launch?":\n- Ticket T-1: Launch checklist (/desk/tickets/1)\n- Ticket T-3: Launch party catering (/desk/tickets/3)',
      records: [
        { type: 'ticket', id: 'T-1', title: 'Launch checklist', subtitle: 'Print the launch posters and book the ha', url: '/desk/tickets/1' },
        { type: 'ticket', id: 'T-3', title: 'Launch party catering', subtitle: 'Order food for the launch party', url: '/desk/tickets/3' },
      ],
    },
    links: { self: '/ai/commands' },
  });
  // The owner holds every key: the salary note matches too. Records matching more words come first.
  const owner = body(await ask(world.ws.owner.headers(), { app: 'desk', q: 'launch bonus' })).data;
  t.deepEqual(
    owner.records.map((record: { url: string }) => record.url),
    ['/desk/salarys/1', '/desk/tickets/1', '/desk/tickets/3'],
  );
  // Another app's records never answer for this one.
  t.false(JSON.stringify(owner).includes('Launch notes'));
});

test('nothing matching: the answer says so', async (t) => {
  const answer = body(await ask(world.agent.headers(), { app: 'desk', q: 'quarterly taxes' })).data;
  t.deepEqual(answer, { app: 'desk', q: 'quarterly taxes', model: null, answer: 'Nothing in Desk matches "quarterly taxes".', records: [] });
});

test('a record with readers answers only for its readers, as search finds it only for them', async (t) => {
  // The agent's private ticket (readers: the agent); the owner holds every key of desk but is not among its readers.
  await env.runtime.search.upsert(world.ws.id, 'desk', { type: 'ticket', id: '9', badge: 'T-9', title: 'Retrospective of the reorganisation', subtitle: 'Kept for the agent', url: '/desk/tickets/9', names: ['Retrospective of the reorganisation'], details: ['Kept for the agent'], readers: [world.agent.memberId] });
  const agent = body(await ask(world.agent.headers(), { app: 'desk', q: 'retrospective' })).data;
  t.deepEqual(agent.records, [{ type: 'ticket', id: 'T-9', title: 'Retrospective of the reorganisation', subtitle: 'Kept for the agent', url: '/desk/tickets/9' }]);
  const owner = body(await ask(world.ws.owner.headers(), { app: 'desk', q: 'retrospective' })).data;
  t.deepEqual(owner.records, []);
  t.is(owner.answer, 'Nothing in Desk matches "retrospective".');
  const search = await env.runtime.server.inject({ method: 'GET', url: '/search?app=desk&q=retrospective', headers: world.ws.owner.headers() });
  t.is(search.statusCode, 200);
  t.deepEqual(body(search).data, []);
});
