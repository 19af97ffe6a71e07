import test from 'ava';
import fs from 'node:fs';
import { docSections, documentedRoutes, manifestRoutes } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

const doc = fs.readFileSync(new URL('../../../docs/apps/calls.md', import.meta.url), 'utf8');

test('docs/apps/calls.md documents every route of the authorization table, each with a curl example, and nothing else', (t) => {
  t.deepEqual(documentedRoutes(doc), manifestRoutes(manifest));
  for (const section of docSections(doc)) t.regex(section, /```sh\ncurl /, section.split('\n')[0]);
});

test('docs/apps/calls.md lists every permission, every event with its exact fields, and every setting', (t) => {
  for (const permission of manifest.permissions) t.true(doc.includes(`| \`${permission.key}\` |`), permission.key);
  for (const event of manifest.events) {
    const row = doc.split('\n').find((line) => line.startsWith(`| \`${event.action}\` |`));
    t.truthy(row, event.action);
    t.is(row!.split('|').at(-2)!.trim(), Object.keys(event.schema.properties).join(', '), event.action);
  }
  for (const field of Object.keys(manifest.settings.schema.properties)) t.true(doc.includes(`| \`${field}\` |`), field);
});
