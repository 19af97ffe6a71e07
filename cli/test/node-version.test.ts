import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { nodeRefusal } from '../src/node-version.js';

const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const node20 = fileURLToPath(new URL('./fixtures/node-20.mjs', import.meta.url));
const exec = promisify(execFile);

test('Node.js 22.12 and newer are supported; anything older gets one line naming both versions', (t) => {
  t.is(nodeRefusal('20.20.2'), 'wpk needs Node.js 22.12 or newer; this is 20.20.2');
  t.is(nodeRefusal('22.11.0'), 'wpk needs Node.js 22.12 or newer; this is 22.11.0');
  t.is(nodeRefusal('18.0.0'), 'wpk needs Node.js 22.12 or newer; this is 18.0.0');
  for (const version of ['22.12.0', '22.23.3', '23.0.0', '24.1.0', '26.0.0']) t.is(nodeRefusal(version), null, version);
});

test('on Node 20 every command refuses in one line before loading anything else', async (t) => {
  for (const args of [['dev'], ['start'], ['--version'], ['new', 'project', 'x']]) {
    // The fixture fails the process on any module resolved after bin.ts's version check.
    const failure = await exec(process.execPath, ['--import=tsx', `--import=${node20}`, bin, ...args], { timeout: 60_000 }).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    t.deepEqual(failure && { code: failure.code, stdout: failure.stdout, stderr: failure.stderr }, { code: 1, stdout: '', stderr: 'wpk needs Node.js 22.12 or newer; this is 20.20.2\n' }, args.join(' '));
  }
});

test('the fixture does stop a process that loads more than the version check', async (t) => {
  // The control: with a supported version, bin.ts goes on to import the program, which the fixture refuses.
  const error = await t.throwsAsync<Error & { code: number; stderr: string }>(
    exec(process.execPath, ['--import=tsx', `--import=${node20}`, bin, '--version'], { timeout: 60_000, env: { ...process.env, FAKE_NODE_VERSION: '22.12.0' } }),
  );
  t.is(error?.code, 1);
  t.regex(error?.stderr ?? '', /Error: loaded \.\/program\.[jt]s/);
});
