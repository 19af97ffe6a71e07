import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(here, '..', 'src');
const doc = path.join(here, '..', '..', '..', 'docs', 'architecture.md');

test('docs/architecture.md lists every core concern (each folder of packages/core/src), and only those', (t) => {
  const folders = fs.readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  const text = fs.readFileSync(doc, 'utf8');
  const section = text.slice(text.indexOf('## The concerns'), text.indexOf('## The path of one request'));
  const listed = [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((match) => match[1]).sort();
  t.deepEqual(listed, folders);
  for (const folder of folders) t.true(fs.existsSync(path.join(src, folder, 'index.ts')), `${folder}/index.ts is the folder's door`);
});
