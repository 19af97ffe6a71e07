import test from 'ava';
import { parse } from 'content-disposition';
import { contentDisposition, fileNameOf } from './content-disposition.js';

test('the exact name travels in filename*, with an ASCII fallback; a standard parser reads the exact name back', (t) => {
  t.is(contentDisposition('Q3 "final" report.txt'), `attachment; filename="Q3 _final_ report.txt"; filename*=UTF-8''Q3%20%22final%22%20report.txt`);
  t.is(contentDisposition('photo.png', 'inline'), `inline; filename="photo.png"; filename*=UTF-8''photo.png`);
  for (const name of ['Q3 "final" report.txt', 'Résumé – Zoë.pdf', "it's (1) * 100%.csv", 'back\\slash;semi,comma.txt', 'line\r\nbreak\ttab.txt', '日本語 📎.docx', 'plain.txt']) {
    const header = contentDisposition(name);
    t.false(/[\r\n]/.test(header), name);
    t.true(/^[\x20-\x7e]+$/.test(header), `${name}: only printable ASCII in the header`);
    const parsed = parse(header);
    t.is(parsed.type, 'attachment');
    t.is(parsed.parameters.filename, name, name);
  }
});

test('a name with an unpaired surrogate is sent with U+FFFD in its place, never as a malformed header', (t) => {
  t.is(parse(contentDisposition('a\ud800b.txt')).parameters.filename, 'a\ufffdb.txt');
});

test('fileNameOf: a title as a file name, what file systems refuse as -, the fallback when nothing is left', (t) => {
  t.is(fileNameOf('Q3/Q4: "plan" é'), 'Q3-Q4- -plan- é');
  t.is(fileNameOf('a\\b*c?d<e>f|g\nh'), 'a-b-c-d-e-f-g-h');
  t.is(fileNameOf(' // '), '-');
  t.is(fileNameOf('   '), 'Untitled');
  t.is(fileNameOf('', 'paper'), 'paper');
});
