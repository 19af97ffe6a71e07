import test from 'ava';
import fs from 'node:fs';
import { docSections, documentedRoutes, manifestRoutes, unnamedInDoc } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

const doc = fs.readFileSync(new URL('../../../docs/apps/finance.md', import.meta.url), 'utf8');

test('docs/apps/finance.md documents every route of the authorization table, each with a curl example, and nothing else', (t) => {
  t.deepEqual(documentedRoutes(doc), manifestRoutes(manifest));
  for (const section of docSections(doc, { routesOnly: true })) t.regex(section, /```sh\ncurl /, section.split('\n')[0]);
});

test('docs/apps/finance.md lists every permission and every emitted event', (t) => {
  t.deepEqual(unnamedInDoc(doc, manifest.permissions.map((permission) => permission.key)), []);
  t.deepEqual(unnamedInDoc(doc, manifest.events.map((event) => event.action)), []);
});

test('docs/apps/finance.md carries the generated worked example', (t) => {
  t.regex(doc, /<!-- worked-example:start -->\n\*\*1\. Record the bill\*\*[\s\S]+Every account nets to zero[^\n]*\n<!-- worked-example:end -->/);
});
