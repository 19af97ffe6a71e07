import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Core = typeof import('@wpk/core');

/**
 * `@wpk/core` as the bench should run it. By default the sources, through tsx, as the tests and
 * `pnpm dev` run them. With `BENCH_BUILT=1`, core built as it is published (`tsup`, into
 * `packages/core/dist/bench/`, ignored by git) and imported from there: tsx names every closure
 * of the code it loads (`__name`, a `defineProperty` per closure made), which the published build
 * does not, so a profile of the sources overstates what closures cost. `@wpk/sdk` and the app under
 * test still load through tsx, as a project with TypeScript apps loads them.
 */
export async function loadCore(): Promise<Core> {
  if (process.env.BENCH_BUILT !== '1') return import('@wpk/core');
  const dir = fileURLToPath(new URL('../../packages/core/', import.meta.url));
  const started = Date.now();
  const built = spawnSync('npx', ['tsup', 'src/index.ts', '--format', 'esm', '--out-dir', 'dist/bench', '--silent'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new Error(`building @wpk/core for BENCH_BUILT failed (tsup exit ${built.status})`);
  console.log(`@wpk/core built as published (tsup, ${((Date.now() - started) / 1000).toFixed(1)} s): packages/core/dist/bench/index.js`);
  return (await import(pathToFileURL(`${dir}dist/bench/index.js`).href)) as Core;
}
