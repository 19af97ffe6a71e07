import test from 'ava';
import Boom from '@hapi/boom';
import { Writable } from 'node:stream';
import { QueryTypes } from 'sequelize';
import { createLogger, type Workspace } from '../src/index.js';
import { runInRequestTransaction } from '../src/server/request-transaction.js';
import { startEventSink, type EventSinkServer } from './helpers/event-sink.js';
import { apiHeaders, startTestRuntime, type TestRuntime } from './helpers/runtime.js';

const logLines: Array<Record<string, any>> = [];
let env: TestRuntime;
let sink: EventSinkServer;
let acme: Workspace;

const TASK_SCHEMA = {
  type: 'object',
  properties: {
    task_id: { type: 'string' },
    title: { type: 'string' },
    note: { type: 'string' },
    details: { type: 'object', properties: { estimate: { type: 'integer' }, label: { type: 'string' } } },
  },
  required: ['task_id'],
};

test.before(async () => {
  const logs = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  sink = await startEventSink();
  env = await startTestRuntime({ logger: createLogger('info', logs), events: { brokerSecret: 'emission-test-secret-0123456789', tuning: { retry: { initialDelayMs: 20, factor: 2 } } } });
  const { runtime } = env;
  acme = await runtime.workspaces.create({ subdomain: 'acme', name: 'Acme' });
  await runtime.db.sequelize.query('CREATE TABLE fixture_tasks (id text PRIMARY KEY, workspace_id uuid NOT NULL)');
  runtime.events.registerParticipant({
    slug: 'tasks',
    firstParty: true,
    address: null,
    emits: [{ action: 'core.tasks.task.created', description: 'A task was created.', schema: TASK_SCHEMA, redact: ['title'] }],
  });
  runtime.events.registerParticipant({ slug: 'hooks', firstParty: true, address: sink.url, subscriptions: [{ action: 'core.tasks.task.created', handler: '/events/core-tasks-task-created' }] });
  // A test-only route: writes a row and stages one event, then answers with the status asked for.
  runtime.server.route({
    method: 'POST',
    path: '/fixture-tasks',
    // A test fixture, not an operation: its answers are not held to the OpenAPI document.
    options: { auth: false, tags: ['fixture'] },
    handler: (request, h) =>
      runInRequestTransaction(runtime.db.sequelize, runtime.events.sink, request, h, async (work) => {
        const body = request.payload as { id: string; status: number; payload?: Record<string, unknown>; action?: string; emitter?: string; metadata?: Record<string, unknown> };
        await runtime.db.sequelize.query('INSERT INTO fixture_tasks (id, workspace_id) VALUES (:id, :ws)', { replacements: { id: body.id, ws: request.app.workspace!.id } });
        work.stage({ emitter: body.emitter ?? 'tasks', action: body.action ?? 'core.tasks.task.created', payload: body.payload ?? { task_id: body.id }, metadata: body.metadata ?? {} });
        if (body.status === 599) throw new Error('handler blew up');
        if (body.status >= 400) throw Boom.boomify(new Error(`status ${body.status}`), { statusCode: body.status });
        return h.response({ id: body.id }).code(body.status);
      }),
  });
  await runtime.events.startBroker();
});

test.after.always(async () => {
  await env?.close();
  await sink?.close();
});

const post = (body: Record<string, unknown>) => env.runtime.server.inject({ method: 'POST', url: '/fixture-tasks', headers: apiHeaders('acme'), payload: body });

async function outbox(): Promise<Array<{ action: string; status: string; reason: string | null; payload: any; metadata: any }>> {
  return env.runtime.db.sequelize.query('SELECT action, status, reason, payload, metadata FROM platform.events ORDER BY seq', { type: QueryTypes.SELECT });
}

test.serial('a staged event is released only when the handler answers 2xx, never on 4xx or 5xx', async (t) => {
  const answers: number[] = [];
  for (const [id, status] of [['ok-200', 200], ['bad-400', 400], ['ok-201', 201], ['missing-404', 404], ['fault-500', 500], ['thrown', 599]] as const) {
    answers.push((await post({ id, status })).statusCode);
  }
  t.deepEqual(answers, [200, 400, 201, 404, 500, 500]);
  await env.runtime.events.settled();
  t.deepEqual(sink.received.map((request) => request.body.payload.task_id).sort(), ['ok-200', 'ok-201']);
  t.deepEqual((await outbox()).map((row) => row.payload.task_id), ['ok-200', 'ok-201']);
  const rows = await env.runtime.db.sequelize.query<{ id: string }>('SELECT id FROM fixture_tasks ORDER BY id', { type: QueryTypes.SELECT });
  t.deepEqual(rows.map((row) => row.id), ['ok-200', 'ok-201'], 'the failed requests left no rows either');
});

test.serial('null payload values are removed before validation and workspace_id is added to the metadata', async (t) => {
  sink.received.length = 0;
  t.is((await post({ id: 'nulls', status: 200, payload: { task_id: 'nulls', title: null, note: null, details: { estimate: 3, label: null } }, metadata: { source: 'test', workspace_id: 'spoofed' } })).statusCode, 200);
  await env.runtime.events.settled();
  const [delivery] = sink.received;
  t.deepEqual(delivery.body.payload, { task_id: 'nulls', details: { estimate: 3 } });
  t.is(delivery.body.metadata.workspace_id, acme.id, 'the platform sets workspace_id; an emitter cannot point elsewhere');
  t.is(delivery.body.metadata.source, 'test');
  t.is(delivery.body.metadata.emitter, 'tasks');
  t.regex(delivery.body.metadata.event_id, /^[0-9a-f-]{36}$/);
  t.false(Number.isNaN(Date.parse(delivery.body.metadata.emitted_at)));
});

test.serial('an event whose payload breaks its schema is rejected and logged, never delivered', async (t) => {
  sink.received.length = 0;
  t.is((await post({ id: 'invalid', status: 200, payload: { task_id: 42, title: 'the plan' } })).statusCode, 200, 'validation happens in the broker, after the request');
  await env.runtime.events.settled();
  t.is(sink.received.length, 0);
  const row = (await outbox()).at(-1)!;
  t.is(row.status, 'rejected');
  t.is(row.reason, 'payload/task_id must be string');
  const line = logLines.find((entry) => entry.msg === 'event rejected');
  t.truthy(line);
  t.is(line!.reason, 'payload/task_id must be string');
  t.deepEqual(line!.payload, { task_id: 42, title: '[REDACTED]' }, 'the log masks redacted fields');
  t.false(JSON.stringify(logLines).includes('the plan'));
});

test.serial('an app may emit only actions its manifest declares', async (t) => {
  sink.received.length = 0;
  const before = (await outbox()).length;
  const undeclared = await post({ id: 'undeclared', status: 200, action: 'core.tasks.task.deleted' });
  t.is(undeclared.statusCode, 500);
  const system = await post({ id: 'system', status: 200, action: 'system.app.installed', payload: { app_slug: 'tasks' } });
  t.is(system.statusCode, 500);
  const stranger = await post({ id: 'stranger', status: 200, emitter: 'ext.acme.unknown' });
  t.is(stranger.statusCode, 500);
  t.is((await outbox()).length, before, 'nothing reached the outbox');
  const faults = logLines.filter((entry) => entry.msg === 'request failed').map((entry) => entry.err?.message);
  t.true(faults.includes('tasks may not emit core.tasks.task.deleted: its manifest does not declare it'));
  t.true(faults.includes('tasks may not emit system.app.installed: system.* events are emitted by the platform runtime only; apps may subscribe to them but never emit them'));
  t.true(faults.includes('ext.acme.unknown is not registered on the event bus'));
});

test.serial('redacted fields are sealed at rest and masked in listings, and subscribers receive them in clear', async (t) => {
  sink.received.length = 0;
  t.is((await post({ id: 'secret', status: 200, payload: { task_id: 'secret', title: 'Acquire Initech' } })).statusCode, 200);
  await env.runtime.events.settled();
  t.is(sink.received[0].body.payload.title, 'Acquire Initech');
  const [stored] = await env.runtime.db.sequelize.query<{ text: string }>(`SELECT payload::text AS text FROM platform.events WHERE payload->>'task_id' = 'secret'`, { type: QueryTypes.SELECT });
  t.false(stored.text.includes('Acquire Initech'));
  t.true(stored.text.includes('"$sealed"'));
  const [listed] = await env.runtime.events.listDeliveries({ limit: 1 });
  t.deepEqual(listed.payload, { task_id: 'secret', title: '[REDACTED]' });
  t.is(listed.status, 'delivered');
  t.false(JSON.stringify(logLines).includes('Acquire Initech'));
});
