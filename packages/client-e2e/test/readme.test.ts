import test from 'ava';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTestPlatform } from '@wpk/testing';

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const example = fileURLToPath(new URL('../../../examples/api-client/src/ten-lines.ts', import.meta.url));

test("the README's ten-line example is examples/api-client/src/ten-lines.ts, and it runs against a server as the README says", async (t) => {
  const readme = fs.readFileSync(new URL('../../client/README.md', import.meta.url), 'utf8');
  const block = /```ts\n([^]*?)```/.exec(readme)?.[1];
  t.is(block, fs.readFileSync(example, 'utf8'));
  t.true(block!.trim().split('\n').length <= 12);

  const platform = await createTestPlatform({ apps: [`${ROOT}plugins/tasks`], firstParty: true, projectDir: ROOT });
  t.teardown(() => platform.close());
  const workspace = await platform.workspace('demo');
  await workspace.install('tasks');
  const { secret } = await workspace.owner.apiKey();
  const baseUrl = await platform.runtime.start();
  // The example's own folder: '@wpk/client' resolves there as in a user's project.
  const { stdout } = await exec(process.execPath, ['--import=tsx', example], {
    cwd: fileURLToPath(new URL('../../../examples/api-client/', import.meta.url)),
    env: { ...process.env, WPK_URL: baseUrl, WPK_WORKSPACE: 'demo', WPK_API_KEY: secret },
    timeout: 120_000,
  });
  t.is(stdout, `${workspace.owner.email} in demo workspace\ntask: Book the venue\nrefused: title is not allowed to be empty\n`);
});
