import test from 'ava';
import { downgradeResponse, resolveApiVersion, type ApiVersion } from './versioning.js';

const versions: ApiVersion[] = [
  { date: '2026-11-01', summary: 'first' },
  { date: '2027-03-01', summary: 'renames title to name', downgrade: (body) => ({ ...(body as object), stage: 'v1' }) },
  { date: '2027-06-01', summary: 'adds rank', downgrade: (body) => ({ ...(body as object), stage: 'v2' }) },
];

test('a date selects the newest version released on or before it', (t) => {
  const pick = (value: string) => {
    const result = resolveApiVersion(value, '2027-12-31', versions);
    return result.ok ? result.version.date : result.error;
  };
  t.is(pick('2026-11-01'), '2026-11-01');
  t.is(pick('2027-02-28'), '2026-11-01');
  t.is(pick('2027-03-01'), '2027-03-01');
  t.is(pick('2027-12-31'), '2027-06-01');
});

test('missing, malformed, earlier and future versions are refused with the supported list', (t) => {
  for (const value of [undefined, '', 'yesterday', '2026-13-01', '2026-02-30', '2026/11/01', '2026-10-31', '2028-01-01']) {
    const result = resolveApiVersion(value, '2027-12-31', versions);
    t.false(result.ok, String(value));
    if (!result.ok) t.true(result.error.endsWith('supported versions: 2026-11-01, 2027-03-01, 2027-06-01'), result.error);
  }
});

test('responses are downgraded step by step, newest first, down to the version in use', (t) => {
  t.deepEqual(downgradeResponse({ a: 1 }, versions[0], { path: '/x', method: 'get' }, versions), { a: 1, stage: 'v1' });
  t.deepEqual(downgradeResponse({ a: 1 }, versions[1], { path: '/x', method: 'get' }, versions), { a: 1, stage: 'v2' });
  t.deepEqual(downgradeResponse({ a: 1 }, versions[2], { path: '/x', method: 'get' }, versions), { a: 1 });
});
