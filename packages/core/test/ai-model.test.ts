import test from 'ava';
import { body, type AppsTestRuntime } from './helpers/apps.js';
import { deskWorld, LocalModelServer, startDeskRuntime, type DeskWorld } from './helpers/ai.js';

// POST /ai/commands with an OpenAI-compatible model (a local server here): what is sent to it,
// and proof that no record the caller may not read ever reaches it.

let env: AppsTestRuntime;
let world: DeskWorld;
let model: LocalModelServer;

const json = { 'content-type': 'application/json' };
const ask = (headers: Record<string, string>, payload: unknown) => env.runtime.server.inject({ method: 'POST', url: '/ai/commands', headers: { ...headers, ...json }, payload: payload as object });

test.before(async () => {
  model = await LocalModelServer.start((request) => `Seen ${request.body.messages[0].content.split('\n').filter((line) => line.startsWith('- ')).length} records.`);
  env = await startDeskRuntime({ ai: { baseUrl: model.baseUrl, model: 'test-model', apiKey: 'sk-local-test' } });
  world = await deskWorld(env, 'aimodel');
});

test.after.always(async () => {
  await env?.close();
  await model?.close();
});

test.serial('the model gets the question and the matching records the member may read, and its answer is returned', async (t) => {
  const before = model.requests.length;
  const answer = await ask(world.agent.headers(), { app: 'desk', q: 'Tell me about the launch bonus' });
  t.is(answer.statusCode, 200);
  t.deepEqual(body(answer).data, {
    app: 'desk',
    q: 'Tell me about the launch bonus',
    model: 'test-model',
    answer: 'Seen 2 records.',
    records: [
      { type: 'ticket', id: 'T-1', title: 'Launch checklist', subtitle: 'Print the launch posters and book the ha', url: '/desk/tickets/1' },
      { type: 'ticket', id: 'T-3', title: 'Launch party catering', subtitle: 'Order food for the launch party', url: '/desk/tickets/3' },
    ],
  });
  t.is(model.requests.length, before + 1);
  const sent = model.requests[before];
  t.is(sent.path, '/v1/chat/completions');
  t.is(sent.authorization, 'Bearer sk-local-test');
  t.like(sent.body, { model: 'test-model', temperature: 0, stream: false });
  t.deepEqual(
    sent.body.messages.map((message) => message.role),
    ['system', 'user'],
  );
  t.is(sent.body.messages[1].content, 'Tell me about the launch bonus');
  t.true(sent.body.messages[0].content.includes('- Ticket T-1: Launch checklist (Print the launch posters and book the ha) </desk/tickets/1>'));
  t.true(sent.body.messages[0].content.includes('- Ticket T-3: Launch party catering'));
  // The salary note matches both words, but the member holds no salary key: it never leaves.
  t.false(model.everythingSent().includes('Alice'));
  t.false(model.everythingSent().includes('salar'));
});

test.serial('no record the member cannot read is ever sent: not another type, not another app, not a refused app, not another workspace', async (t) => {
  const other = await deskWorld(env, 'aimodel2');
  await env.runtime.search.upsert(other.ws.id, 'desk', { type: 'ticket', id: '9', badge: 'T-9', title: 'Launch of the competitor', url: '/desk/tickets/9', names: ['Launch of the competitor'] });
  const questions = ['launch', 'launch bonus Alice', 'salary of Alice', 'launch notes', 'competitor launch', 'printer'];
  for (const q of questions) t.is((await ask(world.agent.headers(), { app: 'desk', q })).statusCode, 200, q);
  // Refused before anything is retrieved: nothing is sent for these.
  const before = model.requests.length;
  t.is((await ask(world.outsider.headers(), { app: 'desk', q: 'launch bonus' })).statusCode, 403);
  t.is((await ask(world.agent.headers(), { app: 'vault', q: 'launch' })).statusCode, 403);
  t.is(model.requests.length, before);
  const everything = model.everythingSent();
  for (const secret of ['Launch bonus for Alice', 'bonus of 5000', '/desk/salarys/', 'Salary note', 'Launch notes', '/notes/n1', 'Launch of the competitor', 'T-9']) {
    t.false(everything.includes(secret), secret);
  }
  // The owner may read salaries: the same question does reach the model with it.
  t.is((await ask(world.ws.owner.headers(), { app: 'desk', q: 'launch bonus Alice' })).statusCode, 200);
  t.true(model.requests.at(-1)!.body.messages[0].content.includes('- Salary note S-1: Launch bonus for Alice'));
});

test.serial('a failing model answers 503 naming the failure', async (t) => {
  model.failWith = 500;
  try {
    const answer = await ask(world.agent.headers(), { app: 'desk', q: 'launch' });
    t.is(answer.statusCode, 503);
    t.deepEqual(body(answer), { error: 'The AI answer failed: the language model answered 500' });
  } finally {
    model.failWith = null;
  }
});
