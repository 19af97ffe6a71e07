import test from 'ava';
import { evaluateChain, type CheckOutcome } from './chain.js';
import { PermissionSet } from './permission-set.js';

test('only keys of the app are kept', (t) => {
  const set = PermissionSet.of('tasks', ['tasks.tasks.read', 'chat.messages.send', 'tasksx.tasks.read', 'ext.acme.tasks.tasks.read']);
  t.deepEqual(set.grantedKeys(), ['tasks.tasks.read']);
  t.true(set.has('tasks.tasks.read'));
  t.false(set.has('chat.messages.send'));
});

test('{slug}.* matches every key of the app, including keys declared later', (t) => {
  const set = PermissionSet.of('tasks', ['tasks.*']);
  t.true(set.has('tasks.tasks.create'));
  t.true(set.has('tasks.comments.create'));
  t.false(set.has('chat.messages.send'));
  t.deepEqual(set.expand(['tasks.tasks.read', 'tasks.boards.manage']), ['tasks.tasks.read', 'tasks.boards.manage']);
  t.true(PermissionSet.of('ext.acme.hello', ['ext.acme.hello.*']).has('ext.acme.hello.greetings.send'));
});

test('the universal wildcard holds everything', (t) => {
  const set = PermissionSet.universal('tasks');
  t.true(set.has('tasks.tasks.delete'));
  t.true(set.holdsAny());
  t.deepEqual(set.grantedKeys(), ['*']);
});

test('holdsAny is false for an empty set', (t) => {
  t.false(PermissionSet.of('tasks', []).holdsAny());
  t.false(PermissionSet.of('tasks', ['chat.messages.send']).holdsAny());
});

const checks = (outcomes: Record<string, CheckOutcome>) => {
  const ran: string[] = [];
  return { ran, run: async (name: string) => (ran.push(name), outcomes[name]) };
};

test('a chain stops at the first missing key', async (t) => {
  const { run } = checks({});
  t.deepEqual(await evaluateChain(['tasks.tasks.read', 'tasks.tasks.export'], PermissionSet.of('tasks', ['tasks.tasks.read']), run), {
    allowed: false,
    message: 'Missing permission: tasks.tasks.export',
    reason: 'lacks tasks.tasks.export',
    permission: 'tasks.tasks.export',
  });
});

test('any_of passes on the first alternative that passes and runs no further check', async (t) => {
  const { ran, run } = checks({ creator: { passed: true }, other: { passed: true } });
  t.deepEqual(await evaluateChain([{ any_of: ['tasks.tasks.delete', { check: 'creator' }, { check: 'other' }] }], PermissionSet.of('tasks', []), run), { allowed: true });
  t.deepEqual(ran, ['creator']);
});

test("an any_of denial uses the group's message, else the first failing check's, else the last key's", async (t) => {
  const none = PermissionSet.of('tasks', []);
  const { run } = checks({ creator: { passed: false, message: 'Only the creator can' }, silent: { passed: false } });
  t.like(await evaluateChain([{ any_of: [{ check: 'creator' }, 'tasks.tasks.delete'], message: 'Cannot delete this task' }], none, run), { allowed: false, message: 'Cannot delete this task' });
  t.like(await evaluateChain([{ any_of: [{ check: 'creator' }, 'tasks.tasks.delete'] }], none, run), { allowed: false, message: 'Only the creator can' });
  t.like(await evaluateChain([{ any_of: [{ check: 'silent', message: 'Step says no' }, 'tasks.tasks.delete'] }], none, run), { allowed: false, message: 'Step says no' });
  t.like(await evaluateChain([{ any_of: ['tasks.tasks.edit', 'tasks.tasks.delete'] }], none, run), { allowed: false, message: 'Missing permission: tasks.tasks.delete', reason: 'none of: tasks.tasks.edit, tasks.tasks.delete', permission: null });
  t.like(await evaluateChain([{ check: 'silent' }], none, run), { allowed: false, message: 'Denied by check silent' });
});

test('owners and admins pass every chain without running checks', async (t) => {
  const { ran, run } = checks({ creator: { passed: false } });
  t.deepEqual(await evaluateChain(['tasks.tasks.delete', { check: 'creator' }], PermissionSet.universal('tasks'), run), { allowed: true });
  t.deepEqual(ran, []);
});
