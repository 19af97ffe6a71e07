/**
 * `node --import=@wpk/ts-hooks`: runs the repository's TypeScript sources, as the tests and the
 * processes they start do (decision 0284, docs/decisions/0284-ci-per-process-costs.md). It does what tsx did for them, with less work per
 * module: Node's synchronous, in-thread module hooks (`module.registerHooks`, no loader thread and
 * no message per import), esbuild's transform of a `.ts` file (types stripped, nothing bundled),
 * and a disk cache of the transformed text keyed by the file's path and contents. Two rules only:
 * a relative `./x.js` imported from TypeScript that does not exist resolves to `./x.ts` (the
 * sources' convention), and every `.ts` file is an ES module (every package is `"type": "module"`).
 * Stack traces name the TypeScript lines (inline source maps). `pnpm dev`, `pnpm wpk` and
 * scaffolded apps keep tsx, which users install.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const TYPESCRIPT = /\.[mc]?ts$/;
/** Part of every cache key: a change to how files are transformed makes new entries. */
const TRANSFORM_VERSION = 'esm-node22-inline-map-no-sources';
const JAVASCRIPT = /\.[mc]?js$/;
const cacheDir = process.env.WPK_TS_CACHE || path.join(os.tmpdir(), `wpk-ts-hooks-${process.getuid?.() ?? 'user'}`);
mkdirSync(cacheDir, { recursive: true });

function transformed(file) {
  const source = readFileSync(file, 'utf8');
  const key = createHash('sha256').update(TRANSFORM_VERSION).update('\0').update(file).update('\0').update(source).digest('hex').slice(0, 40);
  const cached = path.join(cacheDir, `${key}.mjs`);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    // The map names the file and its lines without a copy of its text (sourcesContent), which the
    // file on disk holds: every process decodes the map of every module it loads.
    const { code } = transformSync(source, { loader: 'ts', format: 'esm', target: 'node22', sourcemap: 'inline', sourcesContent: false, sourcefile: file });
    // Written aside and renamed: a process reading the cache never sees half a file.
    const partial = `${cached}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, cached);
    return code;
  }
}

registerHooks({
  resolve(specifier, context, nextResolve) {
    // `./x.js` from TypeScript is most often `./x.ts`: one stat finds it, where asking Node first
    // costs a failed resolution (an error with its stack) for nearly every relative import.
    if (specifier.startsWith('.') && JAVASCRIPT.test(specifier) && context.parentURL?.startsWith('file:') && TYPESCRIPT.test(context.parentURL)) {
      const typescript = new URL(specifier.replace(/js$/, 'ts'), context.parentURL);
      if (!existsSync(new URL(specifier, context.parentURL)) && existsSync(typescript)) return nextResolve(typescript.href, context);
    }
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const fromTypeScript = context.parentURL?.startsWith('file:') && TYPESCRIPT.test(new URL(context.parentURL).pathname);
      if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !fromTypeScript || !specifier.startsWith('.') || !JAVASCRIPT.test(specifier)) throw error;
      return nextResolve(specifier.replace(/js$/, 'ts'), context);
    }
  },
  load(url, context, nextLoad) {
    if (!url.startsWith('file:')) return nextLoad(url, context);
    const file = fileURLToPath(url);
    if (!TYPESCRIPT.test(file)) return nextLoad(url, context);
    return { format: 'module', source: transformed(file), shortCircuit: true };
  },
});

// Errors' stacks point into the TypeScript (the transform's inline source maps).
process.setSourceMapsEnabled(true);
// The app loader registers tsx for an app's TypeScript entry unless a loader is here already.
globalThis[Symbol.for('wpk.typescript-hooks')] = true;
