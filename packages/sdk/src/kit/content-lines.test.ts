import test from 'ava';
import { escapeContentText, foldContentLine } from './content-lines.js';

test('escapeContentText backslashes \\ ; , and writes every line break as \\n', (t) => {
  t.is(escapeContentText('a\\b;c,d\r\ne\rf\ng'), 'a\\\\b\\;c\\,d\\ne\\nf\\ng');
});

test('foldContentLine keeps a line of 75 octets whole and folds longer ones at 75, then 74 octets, never inside a character', (t) => {
  t.is(foldContentLine('x'.repeat(75)), 'x'.repeat(75));
  t.is(foldContentLine('x'.repeat(75 + 74 + 1)), `${'x'.repeat(75)}\r\n ${'x'.repeat(74)}\r\n x`);
  // 'é' is two octets: 37 of them fill 74 octets, the 38th would split at 76.
  t.is(foldContentLine('é'.repeat(38)), `${'é'.repeat(37)}\r\n é`);
});
