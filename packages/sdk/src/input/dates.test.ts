import test from 'ava';
import { parseInstant, parseIsoDate } from './dates.js';

test('a calendar date exists or is refused: nothing rolls forward', (t) => {
  t.is(parseIsoDate('2027-01-31')?.toISOString(), '2027-01-31T00:00:00.000Z');
  t.is(parseIsoDate('2028-02-29')?.toISOString(), '2028-02-29T00:00:00.000Z');
  t.is(parseIsoDate('2000-02-29')?.toISOString(), '2000-02-29T00:00:00.000Z');
  for (const bad of ['2027-02-30', '2027-02-29', '1900-02-29', '2027-13-01', '2027-00-10', '2027-04-31', '2027-01-00', '2027-1-5', '27-01-05', '2027-01-05T00:00:00Z', ' 2027-01-05', '']) {
    t.is(parseIsoDate(bad), null, bad);
  }
});

test('an instant is ISO 8601, at most 40 characters, every field in range; no offset means UTC', (t) => {
  const cases: Array<[string, string]> = [
    ['2027-01-31', '2027-01-31T00:00:00.000Z'],
    ['2027-01-31T09:30', '2027-01-31T09:30:00.000Z'],
    ['2027-01-31T09:30:15Z', '2027-01-31T09:30:15.000Z'],
    ['2027-01-31 09:30:15.25z', '2027-01-31T09:30:15.250Z'],
    ['2027-01-31T09:30:15.123456789+02:00', '2027-01-31T07:30:15.123Z'],
    ['2027-01-31T23:30:00-0130', '2027-02-01T01:00:00.000Z'],
    ['2027-01-31T23:30:00-05', '2027-02-01T04:30:00.000Z'],
  ];
  for (const [text, iso] of cases) t.is(parseInstant(text)?.toISOString(), iso, text);
  for (const bad of ['2027-02-30', '2027-02-30T00:00:00Z', '2027-13-01T00:00Z', '2027-01-01T24:00Z', '2027-01-01T25:00:00Z', '2027-01-01T10:60Z', '2027-01-01T10:10:60Z', '2027-01-01T10:10+24:00', '2027-01-01T10:10+02:60', 'tomorrow', '2027-01-01T10', `2027-01-01T10:10:10.${'1'.repeat(20)}Z`, '']) {
    t.is(parseInstant(bad), null, bad);
  }
});
