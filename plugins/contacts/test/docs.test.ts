import test from 'ava';
import fs from 'node:fs';
import { docSections, documentedRoutes, manifestRoutes } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

const doc = fs.readFileSync(new URL('../../../docs/apps/contacts.md', import.meta.url), 'utf8');

test('docs/apps/contacts.md documents every route of the authorization table, each with a curl example, and nothing else', (t) => {
  t.deepEqual(documentedRoutes(doc), manifestRoutes(manifest));
  for (const section of docSections(doc)) t.regex(section, /```sh\ncurl /, section.split('\n')[0]);
});

test('docs/apps/contacts.md names every permission, every emitted event and every setting', (t) => {
  for (const permission of manifest.permissions) t.true(doc.includes(`\`${permission.key}\``), permission.key);
  for (const event of manifest.events) t.true(doc.includes(`\`${event.action}\``), event.action);
  for (const setting of Object.keys(manifest.settings.schema.properties)) t.true(doc.includes(`"${setting}"`), setting);
});

test('docs/apps/contacts.md names every subscription', (t) => {
  for (const subscription of manifest.subscriptions) {
    const [scope, app, resource, action] = subscription.action.split('.');
    t.true(doc.includes(`\`${subscription.action}\``) || doc.includes(`\`${scope}.${app}.${resource}.`) && doc.includes(`\`.${action}\``), subscription.action);
  }
});
