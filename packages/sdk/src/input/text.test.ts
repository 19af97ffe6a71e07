import test from 'ava';
import { findUnstorableText, isStorableText } from './text.js';

test('text may hold any Unicode but NUL and unpaired surrogates', (t) => {
  for (const good of ['', 'plain', 'émoji 😀', '\ud83d\ude00', 'tab\tnew\nline', '\u0001']) t.true(isStorableText(good), JSON.stringify(good));
  for (const bad of ['\u0000', 'a\u0000b', '\ud800', 'a\ud800b', '\udc00', 'x\ude00', '\ude00\ud83d', '😀\ud800']) t.false(isStorableText(bad), JSON.stringify(bad));
});

test('findUnstorableText names the first offending place as joi would', (t) => {
  t.is(findUnstorableText({ name: 'ok', grid: { background: 'a\u0000' } }, 'body'), 'grid.background');
  t.is(findUnstorableText({ scopes: ['a', '\ud800'] }, 'body'), 'scopes[1]');
  t.is(findUnstorableText('\u0000', 'body'), 'body');
  t.is(findUnstorableText(['\u0000'], 'body'), 'body[0]');
  t.is(findUnstorableText({ filters: { 'a\u0000': 1 } }, 'body'), 'keys of filters');
  t.is(findUnstorableText({ 'a\u0000': 1 }, 'body'), 'keys of body');
  t.is(findUnstorableText({ name: 'fine', n: 1, b: true, z: null, list: [1, 'x'] }, 'body'), null);
  t.is(findUnstorableText(Buffer.from([0]), 'body'), null);
});
