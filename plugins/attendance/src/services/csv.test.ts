import test from 'ava';
import { csvField, toCsv } from './csv.js';

test('CSV fields follow RFC 4180: quoted when they hold a comma, a quote or a line break, quotes doubled', (t) => {
  t.is(csvField('plain'), 'plain');
  t.is(csvField('a,b'), '"a,b"');
  t.is(csvField('say "hi"'), '"say ""hi"""');
  t.is(csvField('two\nlines'), '"two\nlines"');
  t.is(csvField(null), '');
  t.is(csvField(42), '42');
  t.is(csvField(false), 'false');
});

test('CSV text that a spreadsheet would run as a formula is prefixed with a quote', (t) => {
  for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) t.true(csvField(text).replace(/^"/, '').startsWith("'"), text);
  t.is(csvField('=HYPERLINK("http://x","y")'), '"\'=HYPERLINK(""http://x"",""y"")"');
  t.is(csvField('a=b'), 'a=b');
});

test('CSV records end with CRLF, the header first', (t) => {
  t.is(toCsv(['a', 'b'], [[1, 'x'], [null, 'y,z']]), 'a,b\r\n1,x\r\n,"y,z"\r\n');
});
