import test from 'ava';
import { notBefore } from './dates.js';

test('due is not before start; equal days pass; a missing side always passes', (t) => {
  t.true(notBefore('2026-11-21', '2026-11-20'));
  t.true(notBefore('2026-11-21', '2026-11-21'));
  t.false(notBefore('2026-11-20', '2026-11-21'));
  t.true(notBefore('2026-01-01', '2025-12-31'));
  t.true(notBefore(null, '2026-11-21'));
  t.true(notBefore('2026-11-21', undefined));
});
