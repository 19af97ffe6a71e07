import test from 'ava';
import fs from 'node:fs';
import manifest from '../app.json' with { type: 'json' };

const doc = fs.readFileSync(new URL('../../../docs/apps/attendance.md', import.meta.url), 'utf8');

test('docs/apps/attendance.md documents every route of the authorization table, each with a curl example, and nothing else', (t) => {
  const documented = [...doc.matchAll(/^### (GET|POST|PUT|PATCH|DELETE) (\S+)$/gm)].map((match) => `${match[1]} ${match[2]}`);
  t.deepEqual([...documented].sort(), manifest.authorization.map((entry) => `${entry.method} ${entry.path}`).sort());
  const sections = doc.split(/^### /m).slice(1);
  for (const section of sections) t.regex(section, /```sh\ncurl /, section.split('\n')[0]);
});

test('docs/apps/attendance.md names every permission, every emitted event and every setting', (t) => {
  for (const permission of manifest.permissions) t.true(doc.includes(`\`${permission.key}\``), permission.key);
  for (const event of manifest.events) t.true(doc.includes(`\`${event.action}\``), event.action);
  for (const setting of Object.keys(manifest.settings.schema.properties)) t.true(doc.includes(`"${setting}"`), setting);
});
