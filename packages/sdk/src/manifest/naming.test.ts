import test from 'ava';
import { createRequire } from 'node:module';
import { appNamespace, appSchemaName, eventNameProblem, isPastTense, isPermissionVerb, isPluralNoun, parseEventName, permissionKeyProblem } from './naming.js';

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
