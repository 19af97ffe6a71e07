import test from 'ava';
import { testAppDoc } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

const doc = testAppDoc(test, { manifest, doc: new URL('../../../docs/apps/calls.md', import.meta.url), permissions: false, events: false });

test('docs/apps/calls.md lists every permission, every event with its exact fields, and every setting', (t) => {
  for (const permission of manifest.permissions) t.true(doc.includes(`| \`${permission.key}\` |`), permission.key);
  for (const event of manifest.events) {
    const row = doc.split('\n').find((line) => line.startsWith(`| \`${event.action}\` |`));
    t.truthy(row, event.action);
    t.is(row!.split('|').at(-2)!.trim(), Object.keys(event.schema.properties).join(', '), event.action);
  }
  for (const field of Object.keys(manifest.settings.schema.properties)) t.true(doc.includes(`| \`${field}\` |`), field);
});
