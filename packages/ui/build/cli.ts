/**
 * Builds for publishing: `tsx build/cli.ts shell <outDir>` (the shell, in @wpk/ui's own build) and
 * `tsx build/cli.ts app <appDir>` (an app's `ui/` into `{appDir}/dist/ui`, in the app's build).
 * Fails when a build is over the bundle budget.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BUNDLE_BUDGET_BYTES, LAZY_BUDGET_BYTES, WORKER_BUDGET_BYTES, buildAppUi, buildShell, type BuiltUi } from './build.js';

const [kind, target] = process.argv.slice(2);
let built: BuiltUi;
if (kind === 'shell' && target) built = await buildShell(path.resolve(target));
else if (kind === 'app' && target) {
  const appDir = path.resolve(target);
  const manifest = JSON.parse(fs.readFileSync(path.join(appDir, 'app.json'), 'utf8')) as { name: string };
  built = await buildAppUi({ appDir, outDir: path.join(appDir, 'dist', 'ui'), title: manifest.name });
} else {
  console.error('usage: build/cli.ts shell <outDir> | app <appDir>');
  process.exit(2);
}
for (const file of built.files) console.log(`${file.name}  ${file.bytes} B, ${file.gzipBytes} B gzipped`);
console.log(`total ${built.gzipBytes} B gzipped (budget ${BUNDLE_BUDGET_BYTES} B)`);
if (built.lazyGzipBytes > 0) console.log(`on demand ${built.lazyGzipBytes} B gzipped (budget ${LAZY_BUDGET_BYTES} B)`);
if (built.workerGzipBytes > 0) console.log(`workers ${built.workerGzipBytes} B gzipped (budget ${WORKER_BUDGET_BYTES} B)`);
if (kind === 'app' && (built.gzipBytes > BUNDLE_BUDGET_BYTES || built.lazyGzipBytes > LAZY_BUDGET_BYTES || built.workerGzipBytes > WORKER_BUDGET_BYTES)) process.exit(1);
