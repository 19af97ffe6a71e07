import test from 'ava';
import { testAppDoc } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };
import { OWNERSHIP_PREFIX, ownershipValue } from '../src/services/dns-records.js';

const doc = testAppDoc(test, { manifest, doc: new URL('../../../docs/apps/mail.md', import.meta.url), permissions: { grouped: 'bare' }, events: { grouped: 'quoted' } });

test('docs/apps/mail.md explains the DNS set-up: the five records and how they are judged', (t) => {
  t.regex(doc, /^### DNS set-up$/m);
  for (const record of ['| Ownership |', '| MX |', '| SPF |', '| DKIM |', '| DMARC |']) t.true(doc.includes(record), record);
});

test('docs/apps/mail.md states the ownership record and the claim rules as the code has them', (t) => {
  t.true(doc.includes(`\`${OWNERSHIP_PREFIX}.{domain}\` is exactly \`${ownershipValue('{token}')}\``), 'the ownership record');
  t.true(doc.includes('**Who receives a domain\'s mail.**'));
  for (const rule of ['**One holder.**', '**Keeping it.**', '**Losing it.**', '**Moving a domain**']) t.true(doc.includes(rule), rule);
  t.true(doc.includes('| `MAIL_DNS_SERVERS` |'));
});
