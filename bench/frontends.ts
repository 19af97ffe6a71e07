/**
 * Front-end budgets (issue 46, item 4): for every app of the root `wpk.config.json` with a
 * front-end, what its page loads at first (kit included, gzipped; `buildAppUi`, as `wpk ui build`
 * and packages/ui/test/budget.test.ts build it) and how long a person waits, cold, for its first
 * screen: a fresh Chromium profile (no HTTP cache) already signed in opens `/app/{slug}/` and the
 * clock stops when the app's first screen (the element its own browser test waits for) is in its
 * frame. The platform runs on the embedded database unless DATABASE_URL is given, with every app
 * installed in one workspace; each app's page is requested once before the runs, so the server's
 * one-time esbuild of a monorepo front-end (a published app ships its build) is not counted.
 *
 *   npx tsx bench/frontends.ts                          # every app, 3 cold opens each
 *   BENCH_RUNS=5 BENCH_APPS=tasks,papers npx tsx bench/frontends.ts
 *
 * Goals: ≤ 150 kB gzipped at first (the build fails over it), first screen ≤ 1,000 ms cold (the
 * median of BENCH_RUNS opens). The last line: `apps=… max_bundle_kb=… max_first_screen_ms=… over_budget=…`.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startWorld } from '@wpk/testing';
import { browserContext, launchChromium, signIn } from '@wpk/testing/browser';
import { buildAppUi } from '@wpk/ui/build';
import { loadAverage, printTable } from './lib/load.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ONLY = process.env.BENCH_APPS ? new Set(process.env.BENCH_APPS.split(',')) : null;
const BUNDLE_GOAL_KB = 150;
const FIRST_SCREEN_GOAL_MS = 1000;

/** What each app's first screen renders once it is ready: the element its browser test waits for. */
const READY: Record<string, string> = {
  tasks: 'tasks-boards', companies: 'companies-list', contacts: 'contacts-list', finance: 'finance-bills', files: 'files-drive',
  ats: 'ats-jobs', mail: 'mail-mailbox', chat: 'chat-home', canvas: 'canvas-boards', calls: 'calls-list', rooms: 'rooms-list',
  meetings: 'meetings-list', attendance: 'attendance-clock', settings: 'settings-organization', workers: 'workers-list',
  feeds: 'feeds-timeline', growth: 'growth-goals', leaves: 'leaves-mine', sign: 'sign-envelopes', crm: 'crm-board',
  tables: 'tables-bases', papers: 'papers-list', slides: 'slides-decks', wands: 'wands-list', wiki: 'wiki-spaces',
};

const config = JSON.parse(readFileSync(path.join(ROOT, 'wpk.config.json'), 'utf8')) as { apps: Array<{ dir: string }> };
const apps = config.apps
  .map((entry) => ({ slug: path.basename(entry.dir), dir: path.join(ROOT, entry.dir) }))
  .filter((app) => READY[app.slug] && (!ONLY || ONLY.has(app.slug)));
if (apps.length === 0) throw new Error(`no app to measure (BENCH_APPS=${process.env.BENCH_APPS ?? ''})`);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const kb = (bytes: number) => bytes / 1024;

console.log(`front-ends: ${apps.length} apps, ${RUNS} cold opens each, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded database'}, ${os.cpus().length} cores, load average ${loadAverage()}`);

// What each page loads at first, built as a published app builds it.
const bundles = new Map<string, number>();
for (const app of apps) {
  const outDir = path.join(os.tmpdir(), `wpk-bench-frontends-${process.pid}`, app.slug);
  const built = await buildAppUi({ appDir: app.dir, outDir, title: 'Bench' });
  bundles.set(app.slug, built.gzipBytes);
}

const [first, ...rest] = apps;
// The harness makes its scratch database on TEST_DATABASE_URL (the embedded database without it).
if (process.env.DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.DATABASE_URL;
const world = await startWorld({ app: first.dir, apps: rest.map((app) => app.dir), subdomain: 'bench', listen: true, install: { access_policy: 'everyone' } });
const browser = await launchChromium();
const rows: Array<Record<string, string>> = [];
let maxBundle = 0;
let maxFirstScreen = 0;
let over = 0;
try {
  for (const app of rest) await world.workspace.install(app.slug, { access_policy: 'everyone' });
  const origin = world.platform.url(world.workspace.subdomain, '');

  // One signed-in profile's cookies, given to every cold profile: the sign-in is not what is timed.
  const signing = await browserContext(browser, 1280);
  await signIn(await signing.newPage(), origin, world.owner.email);
  const state = await signing.storageState();
  await signing.close();

  const open = async (slug: string) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState: state });
    try {
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${origin}/app/${slug}/`, { waitUntil: 'commit' });
      const frame = (await (await page.waitForSelector('#app-frame', { timeout: 30_000 })).contentFrame())!;
      await frame.waitForSelector(READY[slug], { timeout: 30_000 });
      return performance.now() - started;
    } finally {
      await context.close();
    }
  };

  for (const app of apps) await open(app.slug); // the server builds each monorepo front-end once
  for (const app of apps) {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run += 1) times.push(await open(app.slug));
    const firstScreen = median(times);
    const bundle = kb(bundles.get(app.slug)!);
    const fails = bundle > BUNDLE_GOAL_KB || firstScreen > FIRST_SCREEN_GOAL_MS;
    if (fails) over += 1;
    maxBundle = Math.max(maxBundle, bundle);
    maxFirstScreen = Math.max(maxFirstScreen, firstScreen);
    rows.push({ app: app.slug, 'first load (gzip)': `${bundle.toFixed(1)} kB`, 'first screen, median': `${firstScreen.toFixed(0)} ms`, range: `${Math.min(...times).toFixed(0)}–${Math.max(...times).toFixed(0)} ms${fails ? '  OVER' : ''}` });
  }
} finally {
  await browser.close();
  await world.close();
}

printTable(rows);
console.log(`goals: ≤ ${BUNDLE_GOAL_KB} kB gzipped, first screen ≤ ${FIRST_SCREEN_GOAL_MS} ms cold; load average ${loadAverage()}`);
console.log(`apps=${apps.length} max_bundle_kb=${maxBundle.toFixed(1)} max_first_screen_ms=${maxFirstScreen.toFixed(0)} over_budget=${over}`);
