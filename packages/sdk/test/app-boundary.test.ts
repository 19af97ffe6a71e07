import test from 'ava';
import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

/** Lints `code` as if it were the file at `relativePath` of the repository. */
async function boundaryMessages(relativePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, relativePath) });
  return result.messages.filter((message) => message.ruleId === 'wpk/app-boundary').map((message) => message.message);
}

test('an app may import @wpk/sdk, npm packages and its own files', async (t) => {
  const code = "import { defineApp } from '@wpk/sdk';\nimport Joi from 'joi';\nimport { routes } from './routes/index.js';\nimport manifest from '../app.json';\nexport { defineApp, Joi, routes, manifest };\n";
  t.deepEqual(await boundaryMessages('plugins/tasks/src/index.ts', code), []);
  t.deepEqual(await boundaryMessages('examples/ext-hello/src/index.ts', code), []);
});

test('an app may not import @wpk/core or another @wpk package', async (t) => {
  t.deepEqual(await boundaryMessages('plugins/tasks/src/index.ts', "import { Runtime } from '@wpk/core';\nexport { Runtime };\n"), ['@wpk/core: apps reach the platform through @wpk/sdk only (tests also through @wpk/testing, the front-end in ui/ through @wpk/ui only)']);
  t.deepEqual(await boundaryMessages('examples/ext-hello/src/x.ts', "export * from '@wpk/cli';\n"), ['@wpk/cli: apps reach the platform through @wpk/sdk only (tests also through @wpk/testing, the front-end in ui/ through @wpk/ui only)']);
});

test('an app may not reach into another app or core by a relative path', async (t) => {
  t.deepEqual(await boundaryMessages('plugins/tasks/src/routes/x.ts', "import { a } from '../../../finance/src/index.js';\nexport { a };\n"), [
    '../../../finance/src/index.js: an app imports only its own files (this leaves tasks)',
  ]);
  t.deepEqual(await boundaryMessages('plugins/tasks/src/x.ts', "const core = await import('../../../packages/core/src/index.js');\nexport { core };\n"), [
    '../../../packages/core/src/index.js: an app imports only its own files (this leaves tasks)',
  ]);
});

test('code outside plugins and examples is not bound by the app rule', async (t) => {
  t.deepEqual(await boundaryMessages('packages/core/src/x.ts', "import { Runtime } from '@wpk/core';\nexport { Runtime };\n"), []);
});

test('test files of an app may import @wpk/testing; its source may not', async (t) => {
  const code = "import { createTestPlatform } from '@wpk/testing';\nexport { createTestPlatform };\n";
  t.deepEqual(await boundaryMessages('examples/ext-hello/test/hello.test.ts', code), []);
  t.deepEqual(await boundaryMessages('plugins/tasks/src/services/tasks.test.ts', code), []);
  t.deepEqual(await boundaryMessages('plugins/tasks/src/index.ts', code), ['@wpk/testing: apps reach the platform through @wpk/sdk only (tests also through @wpk/testing, the front-end in ui/ through @wpk/ui only)']);
  t.deepEqual(await boundaryMessages('plugins/tasks/test/helpers/world.ts', "import { Runtime } from '@wpk/core';\nexport { Runtime };\n"), ['@wpk/core: apps reach the platform through @wpk/sdk only (tests also through @wpk/testing, the front-end in ui/ through @wpk/ui only)']);
});
