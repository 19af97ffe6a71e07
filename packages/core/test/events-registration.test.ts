import test from 'ava';
import { ACCOUNT_EVENTS, EventRegistrationError, EventRegistry, SYSTEM_EVENTS, loadCatalog } from '../src/events/index.js';
import pg from 'pg';
import { startTestRuntime, type TestRuntime } from './helpers/runtime.js';

const schema = { type: 'object', properties: { task_id: { type: 'string' }, title: { type: 'string' } }, required: ['task_id'] };
const emits = (action: string) => [{ action, description: 'Something happened.', schema }];

function refused(t: import('ava').ExecutionContext, declaration: Parameters<EventRegistry['registerParticipant']>[0], message: string) {
  const registry = EventRegistry.withRuntimeCatalog();
  const error = t.throws(() => registry.registerParticipant(declaration), { instanceOf: EventRegistrationError });
  t.is(error?.message, message);
  if (!['system', 'account'].includes(declaration.slug)) t.is(registry.participant(declaration.slug), undefined, 'a refused participant leaves no trace');
}

test('a first-party app may declare core.* actions and subscribe to any scope', (t) => {
  const registry = EventRegistry.withRuntimeCatalog();
  registry.registerParticipant({ slug: 'tasks', firstParty: true, address: null, emits: emits('core.tasks.task.created'), subscriptions: [{ action: 'system.workspace.created', handler: '/events/system-workspace-created' }] });
  t.deepEqual(registry.subscriptionsFor('system.workspace.created'), [{ subscriber: 'tasks', action: 'system.workspace.created', handler: '/events/system-workspace-created', maxRetries: 3 }]);
  t.is(registry.emitProblem('tasks', 'core.tasks.task.created'), null);
  t.is(registry.emitProblem('tasks', 'core.tasks.task.deleted'), 'tasks may not emit core.tasks.task.deleted: its manifest does not declare it');
});

test('a third-party app emits only in its own ext.{publisher}.{app} namespace', (t) => {
  const registry = EventRegistry.withRuntimeCatalog();
  registry.registerParticipant({ slug: 'ext.acme.hello', firstParty: false, address: 'https://hello.acme.dev/', emits: emits('ext.acme.hello.greeting.sent') });
  t.is(registry.participant('ext.acme.hello')?.address, 'https://hello.acme.dev');
  refused(t, { slug: 'ext.acme.hello', firstParty: false, address: null, emits: emits('ext.other.app.greeting.sent') }, 'events: participant "ext.acme.hello": emits[0].action: ext.acme.hello may not emit ext.other.app.greeting.sent: an app emits only in its own namespace ext.acme.hello.*');
  refused(t, { slug: 'ext.acme.hello', firstParty: false, address: null, emits: emits('ext.acme.hello.sent') }, 'events: participant "ext.acme.hello": emits[0].action: "ext.acme.hello.sent" must have the form {scope}.{app}.{resource}.{action} with scope core, system or ext.{publisher}');
});

test('core.* is refused to a third-party app at start-up', (t) => {
  refused(t, { slug: 'ext.acme.hello', firstParty: false, address: null, emits: emits('core.tasks.task.created') }, 'events: participant "ext.acme.hello": emits[0].action: ext.acme.hello may not emit core.tasks.task.created: core.* events are emitted by first-party apps only; a third-party app emits in ext.acme.hello.*');
});

test('system.* is never declared by an app, first-party or not', (t) => {
  refused(t, { slug: 'tasks', firstParty: true, address: null, emits: emits('system.app.installed') }, 'events: participant "tasks": emits[0].action: tasks may not emit system.app.installed: system.* events are emitted by the platform runtime only; apps may subscribe to them but never emit them');
  refused(t, { slug: 'ext.acme.hello', firstParty: false, address: null, emits: emits('system.security.role.created') }, 'events: participant "ext.acme.hello": emits[0].action: ext.acme.hello may not emit system.security.role.created: system.* events are emitted by the platform runtime only; apps may subscribe to them but never emit them');
});

test('core.account.* belongs to the runtime, and ext.* to third parties', (t) => {
  refused(t, { slug: 'tasks', firstParty: true, address: null, emits: emits('core.account.role.created') }, 'events: participant "tasks": emits[0].action: tasks may not emit core.account.role.created: core.account.* events are emitted by the platform runtime only');
  refused(t, { slug: 'tasks', firstParty: true, address: null, emits: emits('ext.acme.hello.greeting.sent') }, 'events: participant "tasks": emits[0].action: tasks may not emit ext.acme.hello.greeting.sent: ext.* events belong to third-party apps; a first-party app emits core.*');
  refused(t, { slug: 'tasks', firstParty: true, address: null, emits: emits('custom.tasks.task.created') }, 'events: participant "tasks": emits[0].action: "custom.tasks.task.created" must have the form {scope}.{app}.{resource}.{action} with scope core, system or ext.{publisher}');
});

test('slugs, addresses, names, schemas, redaction paths and subscriptions are checked', (t) => {
  refused(t, { slug: 'ext.acme.hello', firstParty: true, address: null }, 'events: participant "ext.acme.hello": slug "ext.acme.hello" names a third-party app (ext.*), which cannot be first-party');
  refused(t, { slug: 'hello', firstParty: false, address: null }, 'events: participant "hello": slug "hello" of a third-party app must have the form ext.{publisher}.{slug}');
  refused(t, { slug: 'system', firstParty: true, address: null }, 'events: participant "system": slug "system" is reserved for the platform');
  refused(t, { slug: 'account', firstParty: true, address: null }, 'events: participant "account": slug "account" is reserved for the platform');
  refused(t, { slug: 'tasks', firstParty: true, address: 'ftp://x' }, 'events: participant "tasks": address must be an http(s) URL');
  refused(t, { slug: 'tasks', firstParty: true, address: null, emits: emits('core.Tasks.created') }, 'events: participant "tasks": emits[0].action: "core.Tasks.created" must have the form {scope}.{app}.{resource}.{action} with scope core, system or ext.{publisher}');
  refused(t, { slug: 'tasks', firstParty: true, address: null, emits: [{ action: 'core.tasks.task.created', description: 'x', schema: { type: 'string' } }] }, 'events: participant "tasks": emits[0].schema must describe an object (type: "object")');
  refused(
    t,
    { slug: 'tasks', firstParty: true, address: null, emits: [{ action: 'core.tasks.task.created', description: 'x', schema: { type: 'object', properties: { a: { type: 'nonsense' } } } }] },
    'events: participant "tasks": emits[0].schema is not a valid JSON Schema: schema is invalid: data/properties/a/type must be equal to one of the allowed values, data/properties/a/type must be array, data/properties/a/type must match a schema in anyOf',
  );
  refused(t, { slug: 'tasks', firstParty: true, address: null, emits: [{ ...emits('core.tasks.task.created')[0], redact: ['secret'] }] }, 'events: participant "tasks": emits[0].redact: "secret" is not a property of the payload schema');
  refused(t, { slug: 'tasks', firstParty: true, address: null, emits: [...emits('core.tasks.task.created'), ...emits('core.tasks.task.created')] }, 'events: participant "tasks": emits[1].action: core.tasks.task.created is declared twice');
  refused(t, { slug: 'tasks', firstParty: true, address: null, subscriptions: [{ action: 'system.app.installed', handler: 'events/x' }] }, 'events: participant "tasks": subscriptions[0].handler "events/x" must be a URL path starting with "/"');
  refused(t, { slug: 'tasks', firstParty: true, address: null, subscriptions: [{ action: 'system.app.installed', handler: '/x', max_retries: 26 }] }, 'events: participant "tasks": subscriptions[0].max_retries must be an integer from 0 to 25');
  refused(t, { slug: 'tasks', firstParty: true, address: null, source: 'plugins/tasks/app.json', subscriptions: [{ action: 'nope', handler: '/x' }] }, 'plugins/tasks/app.json: events: participant "tasks": subscriptions[0].action: "nope" must have the form {scope}.{app}.{resource}.{action} with scope core, system or ext.{publisher}');
});

test('two first-party apps may declare one core action only with the same schema', (t) => {
  const registry = EventRegistry.withRuntimeCatalog();
  registry.registerParticipant({ slug: 'chat', firstParty: true, address: null, emits: emits('core.member.mentioned') });
  registry.registerParticipant({ slug: 'tasks', firstParty: true, address: null, emits: emits('core.member.mentioned') });
  t.deepEqual([...registry.action('core.member.mentioned')!.emitters], ['chat', 'tasks']);
  const error = t.throws(() => registry.registerParticipant({ slug: 'calls', firstParty: true, address: null, emits: [{ action: 'core.member.mentioned', description: 'x', schema: { type: 'object' } }] }));
  t.is(error?.message, 'events: participant "calls": emits[0].action: core.member.mentioned is already declared by chat, tasks with another schema');
  t.throws(() => registry.registerParticipant({ slug: 'chat', firstParty: true, address: null }), { message: 'events: participant "chat": already registered' });
});

test('the runtime catalog holds every system.* and core.account.* action of the specification, with its payload fields', (t) => {
  const registry = EventRegistry.withRuntimeCatalog();
  const fields = (action: string) => Object.keys((registry.action(action)!.schema as { properties: object }).properties).sort();
  t.deepEqual(SYSTEM_EVENTS.map((event) => event.action), [
    'system.app.installed',
    'system.app.uninstalled',
    'system.workspace.created',
    'system.workspace.member.added',
    'system.workspace.member.removed',
    'system.security.role.created',
    'system.security.permission.denied',
  ]);
  t.is(ACCOUNT_EVENTS.length, 9);
  t.deepEqual(fields('system.security.permission.denied'), ['app_slug', 'member_id', 'permission', 'route']);
  t.deepEqual(fields('core.account.role.deleted'), ['affected_members', 'deleted_by', 'role_id', 'role_name']);
  t.deepEqual(fields('core.account.member.role_changed'), ['changed_by', 'from_role', 'member_id', 'to_role']);
  t.deepEqual(registry.action('core.account.member.invited')!.redact, ['email']);
  const validate = registry.action('system.security.role.created')!.validate;
  t.true(validate({ role_id: '5b0e4c1e-8a43-4f6e-9d0c-0a7b1d8e2f11', role_name: 'Editors', created_by: 'x' }));
  t.false(validate({ role_id: 'not-a-uuid', role_name: 'Editors' }));
  t.is(registry.emitProblem('system', 'system.app.installed'), null);
  t.is(registry.emitProblem('system', 'core.tasks.task.created'), "system may not emit core.tasks.task.created: the runtime's system emitter emits only system.* and core.account.*");
  t.is(registry.emitProblem('account', 'core.account.role.created'), null, 'the account area of the runtime emits core.account.*');
  t.is(registry.emitProblem('account', 'system.app.installed'), 'account may not emit system.app.installed: system.* events are emitted by the platform runtime only');
});

let env: TestRuntime;
test.before(async () => {
  env = await startTestRuntime({ events: { broker: false } });
});
test.after.always(async () => {
  await env?.close();
});

test.serial('the runtime refuses a bad participant at start-up and stores the catalog for standalone brokers', async (t) => {
  const { runtime } = env;
  t.throws(() => runtime.events.registerParticipant({ slug: 'ext.acme.hello', firstParty: false, address: null, emits: emits('core.tasks.task.created') }), {
    instanceOf: EventRegistrationError,
    message: 'events: participant "ext.acme.hello": emits[0].action: ext.acme.hello may not emit core.tasks.task.created: core.* events are emitted by first-party apps only; a third-party app emits in ext.acme.hello.*',
  });
  runtime.events.registerParticipant({ slug: 'tasks', firstParty: true, address: null, emits: [{ ...emits('core.tasks.task.created')[0], redact: ['title'] }] });
  runtime.events.registerParticipant({ slug: 'ext.acme.hello', firstParty: false, address: 'https://hello.acme.dev', subscriptions: [{ action: 'core.tasks.task.created', handler: '/hooks/task', max_retries: 5 }] });
  await runtime.events.syncCatalog();
  const client = new pg.Client({ connectionString: runtime.db.url });
  await client.connect();
  try {
    const stored = await loadCatalog(client);
    t.deepEqual(stored.participant('ext.acme.hello'), { slug: 'ext.acme.hello', firstParty: false, address: 'https://hello.acme.dev' });
    t.deepEqual(stored.subscriptionsFor('core.tasks.task.created'), [{ subscriber: 'ext.acme.hello', action: 'core.tasks.task.created', handler: '/hooks/task', maxRetries: 5 }]);
    t.deepEqual(stored.action('core.tasks.task.created')!.redact, ['title']);
    t.deepEqual([...stored.action('core.tasks.task.created')!.emitters], ['tasks']);
    t.is(stored.action('system.security.role.created')!.description, 'A role was created (audit).');
    t.deepEqual(
      stored.subscriptionsFor('system.security.role.created').map((subscription) => subscription.subscriber),
      ['system'],
      'the audit trail is a subscription like any other',
    );
  } finally {
    await client.end();
  }
});
