import test from 'ava';
import { createRequire } from 'node:module';
import {
  appNamespace,
  appSchemaName,
  emitScopeReason,
  eventNameProblem,
  isPastTense,
  isPermissionVerb,
  isPluralNoun,
  namespaceProblem,
  parseEventName,
  permissionKeyProblem,
  splitNamespace,
} from './naming.js';

test('plural resources end in s (not ss, us, is) or are irregular plurals', (t) => {
  for (const word of ['tasks', 'boards', 'time_entries', 'categories', 'people', 'media', 'api_keys', 'addresses']) t.true(isPluralNoun(word), word);
  for (const word of ['task', 'access', 'status', 'analysis', 's', 'board_member']) t.false(isPluralNoun(word), word);
});

test('permission actions come from the closed verb list', (t) => {
  for (const verb of ['create', 'read', 'edit', 'delete', 'manage', 'assign', 'approve', 'export', 'view']) t.true(isPermissionVerb(verb), verb);
  for (const word of ['creation', 'admin', 'all', 'reads']) t.false(isPermissionVerb(word), word);
});

test('past tense is -ed or a documented irregular form', (t) => {
  for (const word of ['created', 'role_changed', 'sent', 'paid', 'built', 'bulk_deleted']) t.true(isPastTense(word), word);
  for (const word of ['create', 'send', 'reminder', 'ed', 'ready']) t.false(isPastTense(word), word);
});

test('event names split into scope, app, resource and action', (t) => {
  t.deepEqual(parseEventName('core.tasks.task.created'), { scope: 'core', app: 'tasks', resource: 'task', action: 'created' });
  t.deepEqual(parseEventName('ext.acme.hello.greeting.sent'), { scope: 'ext.acme', app: 'hello', resource: 'greeting', action: 'sent' });
  t.is(parseEventName('ext.acme.hello.sent'), null);
  t.is(parseEventName('core.Tasks.task.created'), null);
  t.is(parseEventName('app.tasks.task.created'), null);
});

test('the catalog names that break the rule are accepted verbatim, nothing like them is', (t) => {
  t.is(eventNameProblem('core.calls.call.reminder'), null);
  t.is(eventNameProblem('core.member.mentioned'), null);
  t.not(eventNameProblem('core.calls.call.reminders'), null);
  t.not(eventNameProblem('core.chat.member.mentioned.again'), null);
});

test('permission keys are judged against the namespace', (t) => {
  t.is(permissionKeyProblem('tasks.tasks.create', 'tasks'), null);
  t.is(permissionKeyProblem('ext.acme.hello.greetings.send', 'ext.acme.hello'), null);
  t.regex(permissionKeyProblem('tasks.*', 'tasks') ?? '', /must have the form tasks\.\{resource\}\.\{action\}/);
});

test('namespaces and schemas of first-party and third-party apps', (t) => {
  t.is(appNamespace('tasks'), 'tasks');
  t.is(appNamespace('hello', 'acme'), 'ext.acme.hello');
  t.is(appSchemaName('tasks'), 'app_tasks');
  t.is(appSchemaName('hello', 'acme'), 'ext_acme_hello');
});

test('the JSON Schema is published as @wpk/sdk/app.schema.json', (t) => {
  const require = createRequire(import.meta.url);
  const schema = require('@wpk/sdk/app.schema.json');
  t.is(schema.title, 'Workspace Platform Kit app manifest (app.json)');
  t.deepEqual(schema.required, ['slug', 'name', 'version', 'permissions', 'authorization']);
});

test('one grammar for event names: four parts (five for ext), the catalog names verbatim, system.* only as the platform emits it', (t) => {
  t.is(eventNameProblem('core.tasks.task.created'), null);
  t.is(eventNameProblem('system.app.installed'), null, 'a system event of three parts, as the catalog names it');
  t.regex(eventNameProblem('core.tasks.created') ?? '', /must have the form \{scope\}\.\{app\}\.\{resource\}\.\{action\}/);
  t.regex(eventNameProblem('core.tasks.task.created.again') ?? '', /must have the form/);
  t.regex(eventNameProblem('core.my-app.task.created') ?? '', /must have the form/, 'segments are words joined by _');
  t.regex(eventNameProblem('system.app.exploded') ?? '', /is not an event the platform emits/);
});

test('scope rules: apps by namespace and first-party flag, the runtime by its two emitters', (t) => {
  const tasks = { slug: 'tasks', firstParty: true };
  const hello = { slug: 'hello', publisher: 'acme', firstParty: false };
  t.is(emitScopeReason('core.tasks.task.created', tasks), null);
  t.is(emitScopeReason('ext.acme.hello.greeting.sent', hello), null);
  t.is(emitScopeReason('core.tasks.task.created', hello), 'core.* events are emitted by first-party apps only; a third-party app emits in ext.acme.hello.*');
  t.is(emitScopeReason('core.account.role.created', tasks), 'core.account.* events are emitted by the platform runtime only');
  t.is(emitScopeReason('system.app.installed', { slug: 'system', firstParty: true, runtime: true }), null);
  t.is(emitScopeReason('core.account.role.created', { slug: 'account', firstParty: true, runtime: true }), null);
  t.is(emitScopeReason('system.app.installed', { slug: 'account', firstParty: true, runtime: true }), 'system.* events are emitted by the platform runtime only');
  t.is(emitScopeReason('core.tasks.task.created', { slug: 'system', firstParty: true, runtime: true }), "the runtime's system emitter emits only system.* and core.account.*");
});

test('app namespaces: a first-party slug or ext.{publisher}.{slug}, never a reserved slug', (t) => {
  t.deepEqual(splitNamespace('ext.acme.hello'), { slug: 'hello', publisher: 'acme' });
  t.deepEqual(splitNamespace('tasks'), { slug: 'tasks', publisher: null });
  t.is(namespaceProblem('tasks', true), null);
  t.is(namespaceProblem('time_off', true), null);
  t.is(namespaceProblem('ext.acme.hello', false), null);
  t.is(namespaceProblem('my-app', true), 'slug "my-app" must be lowercase letters and digits, words joined by _');
  t.is(namespaceProblem('core', true), 'slug "core" is reserved for the platform');
  t.is(namespaceProblem('ext.acme.hello', true), 'slug "ext.acme.hello" names a third-party app (ext.*), which cannot be first-party');
  t.regex(namespaceProblem('ext.acme', false) ?? '', /must have the form ext\.\{publisher\}\.\{slug\}/);
  t.regex(namespaceProblem('hello', false) ?? '', /must have the form ext\.\{publisher\}\.\{slug\}/);
});
