import test from 'ava';
import { formatMrn, memberIdFromMrn, memberMrn, parseMrn } from './mrn.js';

test('formatMrn and parseMrn round-trip', (t) => {
  const value = formatMrn('tasks', 'task', 'a1b2');
  t.is(value, 'mrn:tasks:task:a1b2');
  t.deepEqual(parseMrn(value), { app: 'tasks', resource: 'task', id: 'a1b2' });
});

test('members are mrn:account:member:{id}', (t) => {
  t.is(memberMrn('42'), 'mrn:account:member:42');
  t.is(memberIdFromMrn('mrn:account:member:42'), '42');
  t.is(memberIdFromMrn('mrn:tasks:task:42'), null);
});

test('parseMrn rejects strings that are not MRNs', (t) => {
  for (const bad of ['', 'mrn:tasks:task', 'urn:tasks:task:1', 'mrn:Tasks:task:1', 'mrn:tasks:task:', 'mrn:a:b:c:d']) {
    t.is(parseMrn(bad), null, bad);
  }
});

test('formatMrn refuses ambiguous parts', (t) => {
  t.throws(() => formatMrn('tasks', 'task', 'a:b'));
  t.throws(() => formatMrn('Tasks', 'task', '1'));
  t.throws(() => formatMrn('tasks', 'task', ''));
});
