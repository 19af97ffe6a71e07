import test from 'ava';
import fs from 'node:fs';
import { docSections, documentedRoutes, manifestRoutes, unnamedInDoc } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

const doc = fs.readFileSync(new URL('../../../docs/apps/canvas.md', import.meta.url), 'utf8');

test('docs/apps/canvas.md documents every route of the authorization table, each with a curl example, and nothing else', (t) => {
  t.deepEqual(documentedRoutes(doc), manifestRoutes(manifest));
  for (const section of docSections(doc)) t.regex(section, /```sh\ncurl /, section.split('\n')[0]);
});

test('docs/apps/canvas.md lists every permission and every emitted event', (t) => {
  t.deepEqual(unnamedInDoc(doc, manifest.permissions.map((permission) => permission.key), { grouped: 'bare' }), []);
  t.deepEqual(unnamedInDoc(doc, manifest.events.map((event) => event.action), { grouped: 'quoted' }), []);
});
