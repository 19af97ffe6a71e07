import test from 'ava';
import { notBefore, parseIsoDate } from './dates.js';

test('a YYYY-MM-DD string parses as the ISO date at UTC midnight', (t) => {
  t.is(parseIsoDate('2026-11-21')?.toISOString(), '2026-11-21T00:00:00.000Z');
  t.is(parseIsoDate('2028-02-29')?.toISOString(), '2028-02-29T00:00:00.000Z');
});

test('a day that does not exist, or another form, is not a date', (t) => {
  for (const value of ['2026-02-29', '2026-02-30', '2026-13-01', '2026-00-10', '2026-1-5', '2026-11-21T10:00:00Z', '21/11/2026', '']) {
    t.is(parseIsoDate(value), null, value);
  }
});

test('due is not before start; equal days pass; a missing side always passes', (t) => {
  t.true(notBefore('2026-11-21', '2026-11-20'));
  t.true(notBefore('2026-11-21', '2026-11-21'));
  t.false(notBefore('2026-11-20', '2026-11-21'));
  t.true(notBefore('2026-01-01', '2025-12-31'));
  t.true(notBefore(null, '2026-11-21'));
  t.true(notBefore('2026-11-21', undefined));
});
