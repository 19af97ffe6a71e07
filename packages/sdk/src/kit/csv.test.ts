import test from 'ava';
import { csvField, csvText, parseCsv, toCsv } from './csv.js';

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

test('parseCsv reads what toCsv writes, with the line each record starts on', (t) => {
  const text = toCsv(['name', 'note'], [['Ada', 'two\nlines'], ['=Bob', 'say "hi", then go']]);
  t.deepEqual(parseCsv(text), [
    { line: 1, fields: ['name', 'note'] },
    { line: 2, fields: ['Ada', 'two\nlines'] },
    { line: 4, fields: ["'=Bob", 'say "hi", then go'] },
  ]);
  t.is(csvText("'=Bob"), '=Bob');
  t.is(csvText("O'Hara"), "O'Hara");
});

test('parseCsv takes LF line ends, skips blank lines, keeps empty fields, and names the line of an open quote', (t) => {
  t.deepEqual(parseCsv('a,b\n\n1,\n,2\n'), [
    { line: 1, fields: ['a', 'b'] },
    { line: 3, fields: ['1', ''] },
    { line: 4, fields: ['', '2'] },
  ]);
  t.deepEqual(parseCsv('""\n'), [{ line: 1, fields: [''] }]);
  t.throws(() => parseCsv('a\n"open,\nstill'), { message: 'line 2: a quoted field is not closed' });
});
