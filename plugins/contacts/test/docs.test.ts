import test from 'ava';
import { testAppDoc } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

const doc = testAppDoc(test, { manifest, doc: new URL('../../../docs/apps/contacts.md', import.meta.url), settings: { from: 'schema', quote: '"' } });

test('docs/apps/contacts.md names every subscription', (t) => {
  for (const subscription of manifest.subscriptions) {
    const [scope, app, resource, action] = subscription.action.split('.');
    t.true(doc.includes(`\`${subscription.action}\``) || doc.includes(`\`${scope}.${app}.${resource}.`) && doc.includes(`\`.${action}\``), subscription.action);
  }
});
