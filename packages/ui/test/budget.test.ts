import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_BUDGET_BYTES, LAZY_BUDGET_BYTES, WORKER_BUDGET_BYTES, buildAppUi } from '../build/build.js';

// The bundle budget (docs/ui.md): what every app's page loads at first, kit included, stays within
// 150 kB gzipped, and what it loads on demand (dynamic import(): the editor) within 200 kB, and a worker's script (pdf.js's, Sign) within 512 kB. Each first-party app with a ui/ and each example is built here as `wpk ui build` does.
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const apps = ['plugins', 'examples'].flatMap((parent) =>
  fs
    .readdirSync(path.join(repo, parent))
    .map((name) => path.join(repo, parent, name))
    .filter((dir) => fs.existsSync(path.join(dir, 'ui', 'main.ts'))),
);

test('there are front-ends to measure', (t) => {
  t.true(apps.some((dir) => dir.endsWith(`${path.sep}tasks`)), apps.join(', '));
});

for (const appDir of apps) {
  test(`${path.relative(repo, appDir)}: the front-end is within the bundle budget, with fingerprinted assets and no inline script or style`, async (t) => {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-budget-'));
    t.teardown(() => fs.rmSync(outDir, { recursive: true, force: true }));
    const built = await buildAppUi({ appDir, outDir, title: 'Budget' });
    t.log(`${path.basename(appDir)}: ${(built.gzipBytes / 1024).toFixed(1)} kB gzipped of ${(BUNDLE_BUDGET_BYTES / 1024).toFixed(0)} kB`);
    t.true(built.gzipBytes <= BUNDLE_BUDGET_BYTES, `${built.gzipBytes} B gzipped`);
    t.true(built.lazyGzipBytes <= LAZY_BUDGET_BYTES, `${built.lazyGzipBytes} B gzipped on demand`);
    t.true(built.workerGzipBytes <= WORKER_BUDGET_BYTES, `${built.workerGzipBytes} B gzipped of workers`);
    t.true(built.files.filter((file) => file.name !== 'index.html').every((file) => /^assets\/([a-z]+\.[A-Z0-9]{8}\.(js|css)|[a-z.]+\.worker(\.min)?\.[A-Z0-9]{8}\.m?js)$/.test(file.name)), built.files.map((file) => file.name).join(', '));
    const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
    t.notRegex(html, /<script>|<style|style=/);
    t.regex(html, /<script type="module" src="\.\/assets\/main\.[A-Z0-9]{8}\.js"><\/script>/);
  });
}
