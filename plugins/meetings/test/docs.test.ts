import test from 'ava';
import fs from 'node:fs';
import { docSections, documentedRoutes, manifestRoutes, unnamedInDoc } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

const doc = fs.readFileSync(new URL('../../../docs/apps/meetings.md', import.meta.url), 'utf8');

test('docs/apps/meetings.md documents every route of the authorization table, each with a curl example, and nothing else', (t) => {
  t.deepEqual(documentedRoutes(doc), manifestRoutes(manifest));
  for (const section of docSections(doc)) t.regex(section, /```sh\ncurl /, section.split('\n')[0]);
});

test('docs/apps/meetings.md names every permission, event, subscription and setting', (t) => {
  t.deepEqual(unnamedInDoc(doc, manifest.permissions.map((permission) => permission.key)), []);
  t.deepEqual(unnamedInDoc(doc, manifest.events.map((event) => event.action)), []);
  t.deepEqual(unnamedInDoc(doc, manifest.subscriptions.map((subscription) => subscription.action)), []);
  t.deepEqual(unnamedInDoc(doc, Object.keys(manifest.settings.defaults)), []);
});
