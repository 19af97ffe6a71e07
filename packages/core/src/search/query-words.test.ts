import test from 'ava';
import { editsFor, escapeLike, parseQueryWords } from './query-words.js';

test('edit tolerance follows the word length: none up to 3 letters, 1 for 4-5, 2 from 6', (t) => {
  t.deepEqual(['abc', 'abcd', 'abcde', 'abcdef', 'abcdefg'].map(editsFor), [0, 1, 1, 2, 2]);
});

test('words with digits or punctuation never get a typo tolerance', (t) => {
  t.deepEqual(['4521', 'inv2024', 't-4521', 'ann@example'].map(editsFor), [0, 0, 0, 0]);
});

test('letters are counted as characters, not bytes', (t) => {
  t.is(editsFor('мирок'), 1);
  t.is(editsFor('привет'), 2);
});

test('query words are split on white space, deduplicated and classified', (t) => {
  t.deepEqual(
    parseQueryWords('  report t-42 ab report  quarterly '),
    [
      { text: 'report', length: 6, kind: 'token', edits: 2 },
      { text: 't-42', length: 4, kind: 'phrase', edits: 0 },
      { text: 'ab', length: 2, kind: 'short', edits: 0 },
      { text: 'quarterly', length: 9, kind: 'token', edits: 2 },
    ],
  );
});

test('LIKE wildcards in a word are matched literally', (t) => {
  t.is(escapeLike('50%_off\\'), '50\\%\\_off\\\\');
});
