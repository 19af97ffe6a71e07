import test from 'ava';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadApps } from '@wpk/core';
import { unusedPermissions } from '../src/unused-permissions.js';

const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const repo = fileURLToPath(new URL('../..', import.meta.url));
const hello = path.join(repo, 'examples', 'ext-hello');
const exec = promisify(execFile);
const tsHooks = import.meta.resolve('@wpk/ts-hooks');

/** A copy of the hello example whose app.json also declares `extra` permissions; its @wpk/sdk and tsx are the repo's. */
function helloWith(t: { teardown(fn: () => void): void }, extra: string[], code = ''): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-unused-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.cpSync(path.join(hello, 'src'), path.join(dir, 'src'), { recursive: true });
  fs.copyFileSync(path.join(hello, 'package.json'), path.join(dir, 'package.json'));
  fs.mkdirSync(path.join(dir, 'node_modules', '@wpk'), { recursive: true });
  fs.symlinkSync(path.join(repo, 'packages', 'sdk'), path.join(dir, 'node_modules', '@wpk', 'sdk'));
  fs.symlinkSync(path.join(repo, 'node_modules', 'tsx'), path.join(dir, 'node_modules', 'tsx'));
  const manifest = JSON.parse(fs.readFileSync(path.join(hello, 'app.json'), 'utf8'));
  manifest.permissions.push(...extra.map((key) => ({ key, label: key, category: 'Greetings' })));
  fs.writeFileSync(path.join(dir, 'app.json'), JSON.stringify(manifest, null, 2));
  if (code) fs.appendFileSync(path.join(dir, 'src', 'index.ts'), `\n${code}\n`);
  return dir;
}

async function wpk(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [`--import=${tsHooks}`, bin, ...args], { env: { ...process.env, WPK_LOG_LEVEL: 'silent' }, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

test('a permission is used when a chain, an any_of group, a searchable type, a live channel or the code names it; otherwise it is reported with its field', async (t) => {
  const [app] = await loadApps([{ dir: hello }], repo);
  t.deepEqual(unusedPermissions(app), [], 'read and send are in chains, delete in an any_of group');
  const manifest = structuredClone(app.manifest);
  manifest.permissions.push({ key: 'ext.acme.hello.greetings.archive', label: 'Archive', category: 'Greetings' }, { key: 'ext.acme.hello.stats.read', label: 'Stats', category: 'Greetings' });
  const unused = unusedPermissions({ ...app, manifest, dir: null });
  t.deepEqual(unused, [
    { file: app.file, field: 'permissions[3].key', key: 'ext.acme.hello.greetings.archive' },
    { file: app.file, field: 'permissions[4].key', key: 'ext.acme.hello.stats.read' },
  ]);
  manifest.search = [{ type: 'stat', label: 'Stat', permissions: ['ext.acme.hello.stats.read'], names: ['name'], details: [] }];
  t.deepEqual(unusedPermissions({ ...app, manifest, dir: null }).map((entry) => entry.key), ['ext.acme.hello.greetings.archive']);
  const live = { ...app.definition!, live: { archive: { permission: 'ext.acme.hello.greetings.archive' } } } as typeof app.definition;
  t.deepEqual(unusedPermissions({ ...app, manifest, definition: live, dir: null }), []);
  manifest.authorization = [...manifest.authorization, { method: 'GET', path: '/all', chain: ['ext.acme.hello.*'] }];
  t.deepEqual(unusedPermissions({ ...app, manifest, dir: null }), [], 'a wildcard step covers every key under it');
});

test('wpk validate warns about a declared permission nothing uses and exits 0; --strict makes it a problem; the code naming it counts as a use', async (t) => {
  const dir = helloWith(t, ['ext.acme.hello.greetings.archive']);
  const line = `${path.join(dir, 'app.json')}: permissions[3].key: ext.acme.hello.greetings.archive is declared but nothing uses it (no route's chain, searchable type, live channel or code names it)`;
  const relative = (text: string) => text.replaceAll(`${path.relative(process.cwd(), dir)}/`, `${dir}/`);
  const warned = await wpk(['validate', dir]);
  t.is(warned.code, 0, warned.stderr);
  t.deepEqual(relative(warned.stdout).split('\n').slice(1), [`warning: ${line}`, '']);
  const strict = await wpk(['validate', '--strict', dir]);
  t.deepEqual([strict.code, relative(strict.stdout).split('\n').slice(1), strict.stderr], [1, [line, ''], 'wpk: 1 problem found\n']);
  const json = JSON.parse((await wpk(['validate', '--json', dir])).stdout);
  t.deepEqual([json.problems, json.warnings.map(relative)], [[], [line]]);

  const checkedInCode = helloWith(t, ['ext.acme.hello.greetings.archive'], "export const canArchive = (permissions: { has(key: string): boolean }) => permissions.has('ext.acme.hello.greetings.archive');");
  const clean = await wpk(['validate', '--strict', checkedInCode]);
  t.is(clean.code, 0, clean.stdout);
});
