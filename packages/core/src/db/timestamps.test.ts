import test from 'ava';
import pg from 'pg';
import { parseTimestamptz } from './timestamps.js';

const standard = pg.types.getTypeParser(1184, 'text') as (text: string) => Date | number | null;

const same = (text: string) => {
  const fast = parseTimestamptz(text);
  const expected = standard(text);
  return fast instanceof Date && expected instanceof Date ? fast.getTime() === expected.getTime() || (Number.isNaN(fast.getTime()) && Number.isNaN(expected.getTime())) : Object.is(fast, expected);
};

test('reads what PostgreSQL writes in UTC exactly as pg does, to the millisecond', (t) => {
  const texts = [
    '2026-11-27 06:18:01+00',
    '2026-11-27 06:18:01.015+00',
    '2026-11-27 06:18:01.1+00',
    '2026-11-27 06:18:01.999999+00',
    '2026-11-27 06:18:01.123456+00',
    '1970-01-01 00:00:00+00',
    '2000-02-29 23:59:59.5+00',
    '0100-03-01 12:00:00+00',
    '9999-12-31 23:59:59.999+00',
  ];
  for (const text of texts) t.true(same(text), text);
  t.is((parseTimestamptz('2026-11-27 06:18:01.015+00') as Date).toISOString(), '2026-11-27T06:18:01.015Z');
  t.is((parseTimestamptz('2026-11-27 06:18:01.123456+00') as Date).toISOString(), '2026-11-27T06:18:01.123Z');
});

test('every millisecond fraction gives the same Date as pg (1000 * parseFloat rounding included)', (t) => {
  let differing = 0;
  for (let ms = 0; ms < 1000; ms++) {
    for (const text of [`2026-01-02 03:04:05.${String(ms).padStart(3, '0')}+00`, `2026-01-02 03:04:05.${String(ms).padStart(3, '0')}001+00`, `2026-01-02 03:04:05.${String(ms).padStart(3, '0')}999+00`]) {
      if (!same(text)) differing++;
    }
  }
  t.is(differing, 0);
});

test('anything else goes to pg: other offsets, early years, BC, infinity, malformed text', (t) => {
  const texts = ['2026-11-27 06:18:01+05:30', '2026-11-27 06:18:01-08', '0099-01-01 00:00:00+00', '0001-01-01 00:00:00+00 BC', '12026-01-01 00:00:00+00', 'infinity', '-infinity', '2026-11-27T06:18:01+00', '2026-11-27 06:18:0x+00', '2026-11-27 06:18:01.+00'];
  for (const text of texts) t.true(same(text), text);
  t.is(parseTimestamptz('infinity'), Infinity);
  t.is((parseTimestamptz('2026-11-27 06:18:01+05:30') as Date).toISOString(), '2026-11-27T00:48:01.000Z');
});
