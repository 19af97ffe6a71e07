import test from 'ava';
import { existsSync } from 'node:fs';
import { defineApp, defineRoute, Joi, NotFoundError } from '@wpk/sdk';
import { createTestPlatform, type TestPlatform, type TestWorkspace } from '../src/index.js';

// ctx.storage in an app's own tests, with no set-up: the harness gives each platform a data
// directory of its own (local disk), and `platform.follow(url)` opens the signed links.
const manifest = {
  slug: 'papers',
  publisher: 'test',
  name: 'Papers',
  version: '1.0.0',
  permissions: [{ key: 'ext.test.papers.papers.manage', label: 'Manage papers', category: 'Papers' }],
  authorization: [
    { method: 'PUT', path: '/papers/{name}', chain: ['ext.test.papers.papers.manage'] },
    { method: 'GET', path: '/papers/{name}', chain: ['ext.test.papers.papers.manage'] },
    { method: 'POST', path: '/papers/{name}/upload-link', chain: ['ext.test.papers.papers.manage'] },
  ],
};

const app = defineApp(manifest, {
  routes: [
    defineRoute({
      method: 'PUT',
      path: '/papers/{name}',
      chain: ['ext.test.papers.papers.manage'],
      validate: { payload: Joi.object({ text: Joi.string().required() }) },
      handler: async (request, ctx) => ({ data: await ctx.storage.put(`papers/${request.params.name}`, (request.payload as { text: string }).text, { contentType: 'text/plain' }) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/papers/{name}',
      chain: ['ext.test.papers.papers.manage'],
      handler: async (request, ctx) => {
        const key = `papers/${request.params.name}`;
        if (!(await ctx.storage.head(key))) throw new NotFoundError(`No paper ${request.params.name}`);
        const link = await ctx.storage.signedDownloadUrl(key, { expiresInSeconds: 60 });
        return { data: { url: link.url } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/papers/{name}/upload-link',
      chain: ['ext.test.papers.papers.manage'],
      handler: async (request, ctx) => ({ data: { url: (await ctx.storage.signedUploadUrl(`papers/${request.params.name}`, { contentType: 'text/plain', maxBytes: 20 })).url } }),
    }),
  ],
});

let platform: TestPlatform;
let ws: TestWorkspace;

test.before(async () => {
  platform = await createTestPlatform({ apps: [app] });
  ws = await platform.workspace();
  await ws.install('ext.test.papers');
});

test.after.always(async () => {
  await platform?.close();
});

test.serial('ctx.storage works with no set-up: put, a signed download link, a signed upload link', async (t) => {
  const stored = await ws.owner.put(platform.path('ext.test.papers', '/papers/intro'), { text: 'Hello from storage' });
  t.is(stored.status, 200);
  t.like(stored.body.data, { key: 'papers/intro', size_bytes: 18, content_type: 'text/plain' });
  t.true(existsSync(`${platform.dataDir}/storage/${ws.id}/ext.test.papers`));
  const link = await ws.owner.get(platform.path('ext.test.papers', '/papers/intro'));
  const download = await platform.follow(link.body.data.url);
  t.is(download.status, 200);
  t.is(download.bytes.toString(), 'Hello from storage');
  const upload = await ws.owner.post(platform.path('ext.test.papers', '/papers/notes/upload-link'));
  const refused = await platform.follow(upload.body.data.url, { method: 'PUT', body: 'far more than twenty bytes of text', headers: { 'content-type': 'text/plain' } });
  t.deepEqual([refused.status, refused.body], [413, { error: 'The file is larger than 20 bytes, the most this link accepts' }]);
  const accepted = await platform.follow(upload.body.data.url, { method: 'PUT', body: 'short notes', headers: { 'content-type': 'text/plain' } });
  t.is(accepted.status, 200);
  t.is((await platform.follow((await ws.owner.get(platform.path('ext.test.papers', '/papers/notes'))).body.data.url)).bytes.toString(), 'short notes');
});

test.serial("signed links expire by the platform's clock, so a test can move past a link's life", async (t) => {
  await ws.owner.put(platform.path('ext.test.papers', '/papers/later'), { text: 'Read me soon' });
  const link = await ws.owner.get(platform.path('ext.test.papers', '/papers/later'));
  t.is((await platform.follow(link.body.data.url)).status, 200);
  platform.clock.advance({ seconds: 61 });
  const expired = await platform.follow(link.body.data.url);
  t.deepEqual([expired.status, expired.body], [403, { error: 'This storage link has expired' }]);
});
