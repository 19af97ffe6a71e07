import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(here, '..', 'src');
const doc = path.join(here, '..', '..', '..', 'docs', 'architecture.md');

test('docs/architecture.md lists every core concern (each folder of packages/core/src), and only those', (t) => {
  const folders = fs.readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  const text = fs.readFileSync(doc, 'utf8');
  const section = text.slice(text.indexOf('## The concerns'), text.indexOf('## The plugins'));
  const listed = [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((match) => match[1]).sort();
  t.deepEqual(listed, folders);
  for (const folder of folders) t.true(fs.existsSync(path.join(src, folder, 'index.ts')), `${folder}/index.ts is the folder's door`);
});

test('docs/architecture.md lists the core plugins of plugins.ts: names, folders, order and dependencies', async (t) => {
  const { CORE_PLUGINS, orderPlugins } = await import('../src/plugins.js');
  const text = fs.readFileSync(doc, 'utf8');
  const section = text.slice(text.indexOf('## The plugins'), text.indexOf('### Seams'));
  const rows = [...section.matchAll(/^\| `([a-z-]+)` \| `([a-z-]+)` \|([^|]*)\|/gm)].map(([, name, folder, deps]) => ({ name, folder, dependencies: [...deps.matchAll(/`([a-z-]+)`/g)].map((match) => match[1]) }));
  t.deepEqual(
    rows.map(({ name, dependencies }) => ({ name, dependencies })),
    CORE_PLUGINS.map((plugin) => ({ name: plugin.name, dependencies: [...plugin.dependencies] })),
  );
  // The list is written in the order the plugins are registered.
  t.deepEqual(orderPlugins(CORE_PLUGINS).map((plugin) => plugin.name), CORE_PLUGINS.map((plugin) => plugin.name));
  for (const { name, folder } of rows) {
    t.true(fs.existsSync(path.join(src, folder, 'plugin.ts')), `${name}: ${folder}/plugin.ts`);
    t.regex(fs.readFileSync(path.join(src, folder, 'plugin.ts'), 'utf8'), new RegExp(`name: '${name}'`), `${name} is declared in ${folder}/plugin.ts`);
  }
});

test('runtime.ts wires nothing itself: every route, hook and service comes from a registered plugin', (t) => {
  const runtime = fs.readFileSync(path.join(src, 'runtime.ts'), 'utf8');
  for (const wiring of ['server.route(', 'server.ext(', 'server.register(', '.use', '.set', '.connect', '.onAccessDenied', '() => runtime', 'eventSink']) t.false(runtime.includes(wiring), `runtime.ts contains ${wiring}`);
  t.true(runtime.includes('registerCorePlugins(server'));
});

test('orderPlugins follows declared dependencies, keeps the list order otherwise, and refuses cycles and unknown names', async (t) => {
  const { orderPlugins } = await import('../src/plugins.js');
  const plugin = (name: string, ...dependencies: string[]) => ({ name, dependencies, register() {} });
  t.deepEqual(orderPlugins([plugin('web', 'identity'), plugin('db'), plugin('identity', 'db'), plugin('mail')]).map((p) => p.name), ['db', 'identity', 'web', 'mail']);
  t.throws(() => orderPlugins([plugin('a', 'b'), plugin('b', 'a')]), { message: 'core plugins depend on each other in a cycle: a, b' });
  t.throws(() => orderPlugins([plugin('a', 'nope')]), { message: 'core plugin a depends on nope, which is not a core plugin' });
  t.throws(() => orderPlugins([plugin('a'), plugin('a')]), { message: 'core plugin a is listed twice' });
});
