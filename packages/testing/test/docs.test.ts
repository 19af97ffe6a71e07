import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testAppDoc, type DocAssertions, type DocManifest } from '../src/index.js';

// testAppDoc's registered tests, run against a recording `t`: their titles, and what each asserted.

const MANIFEST: DocManifest = {
  authorization: [{ method: 'POST', path: '/items' }, { method: 'GET', path: '/items/{id}' }],
  permissions: [{ key: 'ext.acme.hello.items.create' }, { key: 'ext.acme.hello.items.read' }],
  events: [{ action: 'ext.acme.hello.item.created' }],
  subscriptions: [{ action: 'system.app.installed' }],
  settings: { schema: { properties: { welcome_title: {} } }, defaults: { welcome_title: 'Welcome' } },
};

const GOOD = `# Hello

Keys: \`ext.acme.hello.items.\` (\`create\`, \`read\`). Emits \`ext.acme.hello.item.created\`; follows \`system.app.installed\`. Setting "welcome_title".

### POST /items

\`\`\`sh
curl -X POST https://acme.example.com/ext/acme/hello/items
\`\`\`

### GET /items/{id}

\`\`\`sh
curl https://acme.example.com/ext/acme/hello/items/1
\`\`\`
`;

type Failure = [string, ...unknown[]];

/** Runs testAppDoc on a page written to docs/apps/hello.md; answers each test's title and failed assertions. */
function run(t: { teardown(fn: () => void): void }, page: string, options: Omit<Parameters<typeof testAppDoc>[1], 'doc' | 'manifest'> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-docs-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'docs', 'apps', 'hello.md');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, page);
  const results: Array<{ title: string; failures: Failure[] }> = [];
  const returned = testAppDoc(
    (title, implementation) => {
      const failures: Failure[] = [];
      const recorder: DocAssertions = {
        deepEqual: (actual, expected, message) => JSON.stringify(actual) === JSON.stringify(expected) || failures.push(['deepEqual', actual, message]),
        regex: (contents, regex, message) => regex.test(contents) || failures.push(['regex', message]),
      };
      implementation(recorder);
      results.push({ title, failures });
    },
    { manifest: MANIFEST, doc: file, ...options },
  );
  return { results, returned };
}

test('a page naming every route with its curl example, every permission, event, subscription and setting passes both tests; the page text is answered', (t) => {
  const { results, returned } = run(t, GOOD, { permissions: { grouped: 'bare' }, subscriptions: {}, settings: { from: 'schema', quote: '"' } });
  t.deepEqual(results, [
    { title: 'docs/apps/hello.md documents every route of the authorization table, each with a curl example, and nothing else', failures: [] },
    { title: 'docs/apps/hello.md names every permission, every emitted event, every subscription and every setting', failures: [] },
  ]);
  t.is(returned, GOOD);
});

test('a missing route, an extra one and a section without curl fail, naming the section', (t) => {
  const page = GOOD.replace('### GET /items/{id}', '### GET /things').replace('curl https', 'wget https');
  const { results } = run(t, page, { permissions: { grouped: 'bare' } });
  t.deepEqual(results[0].failures, [
    ['deepEqual', ['GET /things', 'POST /items'], undefined],
    ['regex', 'GET /things'],
  ]);
});

test("only the routes' sections need curl with curlIn: 'routes'; another curl shape is given with curl", (t) => {
  const page = `${GOOD}\n### Limits\n\nNone.\n`.replace('```sh\ncurl -X POST', '```sh\nID=$(curl -X POST');
  t.deepEqual(run(t, page, { permissions: { grouped: 'bare' } }).results[0].failures, [['regex', 'POST /items'], ['regex', 'Limits']]);
  t.deepEqual(run(t, page, { permissions: { grouped: 'bare' }, curlIn: 'routes', curl: /```sh\n(\S+=\$\()?curl / }).results[0].failures, []);
});

test('the names left out are listed with the page; grouped names count only with the option; nothing asked, no second test', (t) => {
  const { results } = run(t, GOOD.replace('follows `system.app.installed`', 'follows nothing'), { subscriptions: {}, settings: { from: 'defaults' } });
  t.deepEqual(results[1], {
    title: 'docs/apps/hello.md names every permission, every emitted event, every subscription and every setting',
    failures: [
      ['deepEqual', ['ext.acme.hello.items.create', 'ext.acme.hello.items.read'], 'the permissions docs/apps/hello.md does not name'],
      ['deepEqual', ['system.app.installed'], 'the subscriptions docs/apps/hello.md does not name'],
      ['deepEqual', ['welcome_title'], 'the settings docs/apps/hello.md does not name'],
    ],
  });
  t.is(run(t, GOOD, { permissions: false, events: false }).results.length, 1);
});
