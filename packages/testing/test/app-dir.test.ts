import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineApp } from '@wpk/sdk';
import { startWorld } from '../src/index.js';

// An app built in code (a deployment's options, as the Mail app's tests build it) given with the
// folder of its manifest: its files are served from that folder, as for an app given by directory.
const manifest = { slug: 'notes', publisher: 'test', name: 'Notes', version: '1.0.0', public: 'public', permissions: [], authorization: [] };

test('an app given as { app, dir } is loaded from its definition and served from its folder', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-app-dir-'));
  fs.writeFileSync(path.join(dir, 'app.json'), JSON.stringify(manifest));
  fs.mkdirSync(path.join(dir, 'public'));
  fs.writeFileSync(path.join(dir, 'public', 'hello.txt'), 'hello from the folder');
  const world = await startWorld({ app: { app: defineApp(manifest, {}), dir }, subdomain: 'acme' });
  t.teardown(() => world.close());
  t.is(world.app, 'ext.test.notes');
  const answer = await world.platform.runtime.server.inject({ method: 'GET', url: '/public/apps/ext.test.notes/hello.txt', headers: { host: 'acme.localhost' } });
  t.is(answer.statusCode, 200);
  t.is(answer.payload, 'hello from the folder');
});
