import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Server } from '@hapi/hapi';
import pino from 'pino';
import type { AppRegistry } from '../src/apps/index.js';
import type { RuntimeConfig } from '../src/config.js';
import type { CoreInputs } from '../src/core-inputs.js';
import { defineCorePlugin, inputs, plugins } from '../src/core-plugin.js';
import type { Database } from '../src/db/index.js';
import type { WorkspaceService } from '../src/tenancy/index.js';
import { orderPlugins, registerCorePlugins } from '../src/plugins.js';

const src = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** Stand-ins for what `Runtime.create` hands the plugins: only their identity matters here. */
function fakeInputs(): CoreInputs {
  const clock = () => new Date('2027-01-01T00:00:00.000Z');
  return { config: { baseDomain: 'example.test' } as RuntimeConfig, logger: pino({ level: 'silent' }), seams: { clock }, database: { fake: 'database' } as unknown as Database, apps: { fake: 'apps' } as unknown as AppRegistry };
}

const fakeDb = defineCorePlugin({
  name: 'db',
  deps: { database: inputs.database },
  register: (_server, { database }) => ({ database, statistics: null }),
});

test('register gets exactly the declared deps, typed; what it returns is exposed', async (t) => {
  const given = fakeInputs();
  const workspaces = { fake: 'workspaces' } as unknown as WorkspaceService;
  const seen: Record<string, unknown> = {};
  const tenancy = defineCorePlugin({
    name: 'tenancy',
    deps: { clock: inputs.clock, config: inputs.config, db: plugins.db },
    register(_server, deps) {
      seen.tenancy = { ...deps };
      const database: Database = deps.db.database;
      const now: Date = deps.clock();
      t.is(database, given.database);
      t.is(now.toISOString(), '2027-01-01T00:00:00.000Z');
      // @ts-expect-error undeclared: a plugin gets no input it did not list
      t.is(deps.logger, undefined);
      return { workspaces };
    },
  });
  const bare = defineCorePlugin({
    name: 'bare',
    deps: {},
    after: ['tenancy'],
    register(_server, deps) {
      seen.bare = { ...deps };
      // @ts-expect-error undeclared: a plugin that declares no `db` cannot read it
      t.is(deps.db, undefined);
    },
  });
  const server = new Server();
  await registerCorePlugins(server, given, [bare, tenancy, fakeDb]);
  t.deepEqual(Object.keys(seen.tenancy as object), ['clock', 'config', 'db']);
  t.deepEqual(seen.tenancy, { clock: given.seams.clock, config: given.config, db: { database: given.database, statistics: null } });
  t.deepEqual(seen.bare, {});
  t.is(server.plugins.db.database, given.database);
  t.is(server.plugins.tenancy.workspaces, workspaces);
  t.deepEqual(Object.keys(server.plugins).sort(), ['db', 'tenancy']);
});

test('a core plugin reaches other plugins only through its deps: server.plugins and server.expose are type errors', (t) => {
  const reaching = defineCorePlugin({
    name: 'reaching',
    deps: {},
    register(server) {
      // @ts-expect-error a core plugin's server has no `plugins`: declare `plugins.db` in deps
      void server.plugins.db;
      // @ts-expect-error nor `expose`: return what the plugin offers
      server.expose('x', 1);
    },
  });
  t.deepEqual(reaching.dependencies, []);
  // The core plugins themselves: no reach past their deps (types forbid it; a cast would show here).
  for (const folder of fs.readdirSync(src)) {
    const file = path.join(src, folder, 'plugin.ts');
    if (!fs.existsSync(file)) continue;
    const text = fs.readFileSync(file, 'utf8');
    t.false(/server\.plugins|server\.expose|\.realm\.plugins/.test(text), `${folder}/plugin.ts reads past its deps`);
  }
});

test('dependencies are derived from the declared plugin deps, then `after`; orderPlugins orders by them', (t) => {
  const none = { register: () => {} };
  const server = defineCorePlugin({ name: 'server', deps: { db: plugins.db }, ...none });
  const search = defineCorePlugin({ name: 'search', deps: { logger: inputs.logger, catalog: plugins['app-catalog'], db: plugins.db, again: plugins.db }, after: ['server', 'db'], register: () => ({ index: null! }) });
  const catalog = defineCorePlugin({ name: 'app-catalog', deps: { registry: inputs.apps, db: plugins.db }, register: () => ({ registry: null!, installations: null!, installedSubscribers: null!, installedEmitters: null! }) });
  t.deepEqual(fakeDb.dependencies, []);
  t.deepEqual(server.dependencies, ['db']);
  t.deepEqual(catalog.dependencies, ['db']);
  // Inputs add no dependency; a plugin named twice (or again in `after`) counts once.
  t.deepEqual(search.dependencies, ['app-catalog', 'db', 'server']);
  t.deepEqual(orderPlugins([search, server, catalog, fakeDb]).map((plugin) => plugin.name), ['db', 'server', 'app-catalog', 'search']);
});

test('a declared plugin that is not a core plugin, or an unknown `after`, fails with the clear error', (t) => {
  const reader = defineCorePlugin({ name: 'reader', deps: { search: plugins.search }, register() {} });
  t.throws(() => orderPlugins([fakeDb, reader]), { message: 'core plugin reader depends on search, which is not a core plugin' });
  const follower = defineCorePlugin({ name: 'follower', deps: { db: plugins.db }, after: ['identitty'], register() {} });
  t.throws(() => orderPlugins([fakeDb, follower]), { message: 'core plugin follower depends on identitty, which is not a core plugin' });
  // `plugins` names only plugins that declare what they expose.
  // @ts-expect-error no core plugin is called `nope`
  t.deepEqual(plugins.nope, { plugin: 'nope' });
});
