import test from 'ava';
import fs from 'node:fs';
import { docSections, documentedRoutes, manifestRoutes, unnamedInDoc } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

const doc = fs.readFileSync(new URL('../../../docs/apps/contacts.md', import.meta.url), 'utf8');

test('docs/apps/contacts.md documents every route of the authorization table, each with a curl example, and nothing else', (t) => {
  t.deepEqual(documentedRoutes(doc), manifestRoutes(manifest));
  for (const section of docSections(doc)) t.regex(section, /```sh\ncurl /, section.split('\n')[0]);
});

test('docs/apps/contacts.md names every permission, every emitted event and every setting', (t) => {
  t.deepEqual(unnamedInDoc(doc, manifest.permissions.map((permission) => permission.key)), []);
  t.deepEqual(unnamedInDoc(doc, manifest.events.map((event) => event.action)), []);
  t.deepEqual(unnamedInDoc(doc, Object.keys(manifest.settings.schema.properties), { quote: '"' }), []);
});

test('docs/apps/contacts.md names every subscription', (t) => {
  for (const subscription of manifest.subscriptions) {
    const [scope, app, resource, action] = subscription.action.split('.');
    t.true(doc.includes(`\`${subscription.action}\``) || doc.includes(`\`${scope}.${app}.${resource}.`) && doc.includes(`\`.${action}\``), subscription.action);
  }
});
