import test from 'ava';
import fs from 'node:fs';
import { docSections, documentedRoutes, manifestRoutes } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

const doc = fs.readFileSync(new URL('../../../docs/apps/chat.md', import.meta.url), 'utf8');

test('docs/apps/chat.md documents every route of the authorization table, each with a curl example, and nothing else', (t) => {
  t.deepEqual(documentedRoutes(doc), manifestRoutes(manifest));
  for (const section of docSections(doc)) t.regex(section, /```sh\ncurl /, section.split('\n')[0]);
});

test('docs/apps/chat.md lists every permission and every emitted event', (t) => {
  for (const permission of manifest.permissions) {
    const [, resource, action] = permission.key.split('.');
    t.true(doc.includes(`\`${permission.key}\``) || doc.includes(`\`chat.${resource}.`) && doc.includes(action), permission.key);
  }
  for (const event of manifest.events) {
    const [, , resource, action] = event.action.split('.');
    t.true(doc.includes(`\`${event.action}\``) || doc.includes(`\`core.chat.${resource}.`) && doc.includes(`\`${action}\``), event.action);
  }
});
