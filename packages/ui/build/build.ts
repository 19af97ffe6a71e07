import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * How an app's front-end (`ui/main.ts`) and the workspace shell become files (docs/ui.md, "Build
 * and serving"): esbuild bundles them with the kit into fingerprinted files (`main.3f9a1c2b.js`,
 * cached for a year) and a small unhashed `index.html`; a published app ships the result in
 * `dist/ui/`, a source checkout builds it on first use into a cache keyed by the sources' hash.
 */

/** What an app's page loads at first (its scripts and stylesheets, kit included) stays within this many bytes once gzipped (the budget CI checks). */
export const BUNDLE_BUDGET_BYTES = 150 * 1024;

/**
 * What an app loads later, on demand (`await import(...)`: the collaborative editor of
 * `@wpk/ui/editor`, say), stays within this many bytes once gzipped, all such chunks together.
 */
export const LAZY_BUDGET_BYTES = 200 * 1024;

/**
 * A worker's script (a file named `*.worker.mjs` / `*.worker.min.mjs` / `*.worker.js` that the app
 * imports for its URL: pdf.js's) stays within this many bytes once gzipped, all of them together.
 * It is fetched only by the screen that starts the worker, after that screen's chunk, so it is
 * counted apart from both budgets above (docs/ui.md, "budget").
 */
export const WORKER_BUDGET_BYTES = 512 * 1024;

/** The esbuild loaders that make a worker's script a fingerprinted file whose import is its URL (relative to the assets' folder). */
const WORKER_LOADERS = { '.worker.mjs': 'file', '.worker.min.mjs': 'file', '.worker.js': 'file', '.worker.min.js': 'file' } as const;

/** A built worker's script (`assets/pdf.worker.min.AB12CD34.mjs`). */
const isWorker = (name: string) => /\.worker(\.min)?\.[A-Za-z0-9]+\.m?js$/.test(name);

/** One file of a build, with its size as sent compressed. */
export interface BuiltFile {
  /** Path inside the build's folder (`assets/main.1a2b3c4d.js`). */
  name: string;
  bytes: number;
  gzipBytes: number;
}

/** A finished build. */
export interface BuiltUi {
  dir: string;
  files: BuiltFile[];
  /** The gzipped size of everything the page loads at first (its scripts and stylesheets, and the chunks they import statically). */
  gzipBytes: number;
  /** The gzipped size of the chunks loaded only on demand (dynamic `import()`); 0 when there are none. */
  lazyGzipBytes: number;
  /** The gzipped size of the workers' scripts (imported for their URL, `*.worker.mjs`); 0 when there are none. */
  workerGzipBytes: number;
}

/** The folder of the @wpk/ui package (source checkout or installed). */
export function kitRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === '@wpk/ui') return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('@wpk/ui: cannot find the package folder');
    dir = parent;
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function filesOf(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesOf(full));
    else out.push(full);
  }
  return out.sort();
}

/** Sizes a build; `lazy` names the files (relative to `dir`) loaded only on demand. */
function measure(dir: string, lazy: ReadonlySet<string> = new Set()): BuiltUi {
  const files = filesOf(dir).map((file) => {
    const bytes = fs.readFileSync(file);
    return { name: path.relative(dir, file).split(path.sep).join('/'), bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  });
  const loaded = files.filter((file) => /\.(js|css)$/.test(file.name) && !isWorker(file.name));
  const gzipBytes = loaded.filter((file) => !lazy.has(file.name)).reduce((sum, file) => sum + file.gzipBytes, 0);
  const lazyGzipBytes = loaded.filter((file) => lazy.has(file.name)).reduce((sum, file) => sum + file.gzipBytes, 0);
  const workerGzipBytes = files.filter((file) => isWorker(file.name)).reduce((sum, file) => sum + file.gzipBytes, 0);
  return { dir, files, gzipBytes, lazyGzipBytes, workerGzipBytes };
}

async function esbuild() {
  return import('esbuild');
}

const TARGET = ['chrome120', 'firefox121', 'safari17'];

/**
 * Bundles an app's front-end: `{appDir}/ui/main.ts` and the kit's stylesheet into `outDir`:
 * `assets/main.{hash}.js`, `assets/app.{hash}.css` (and any chunk or file they pull in, each
 * hashed) and `index.html`, which loads them — no inline script or style, so the page runs under
 * a Content-Security-Policy without `unsafe-inline`.
 */
export async function buildAppUi(options: { appDir: string; outDir: string; title: string }): Promise<BuiltUi> {
  const { build } = await esbuild();
  const entry = path.join(options.appDir, 'ui', 'main.ts');
  if (!fs.existsSync(entry)) throw new Error(`${entry}: an app's front-end starts at ui/main.ts`);
  fs.rmSync(options.outDir, { recursive: true, force: true });
  const result = await build({
    entryPoints: { main: entry, app: path.join(kitRoot(), 'styles', 'app.css') },
    outdir: path.join(options.outDir, 'assets'),
    entryNames: '[name].[hash]',
    chunkNames: '[name].[hash]',
    assetNames: '[name].[hash]',
    bundle: true,
    format: 'esm',
    // Chunks: a dynamic import() becomes a chunk the page loads on demand (counted apart).
    splitting: true,
    // A worker's script is a file of its own; importing it answers its URL (see WORKER_BUDGET_BYTES).
    loader: WORKER_LOADERS,
    minify: true,
    target: TARGET,
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
    absWorkingDir: options.appDir,
  });
  const relative = (file: string) => path.relative(options.outDir, path.resolve(options.appDir, file)).split(path.sep).join('/');
  const outputs = Object.keys(result.metafile.outputs).map(relative);
  const script = outputs.find((file) => /^assets\/main\.[^/]+\.js$/.test(file));
  const styles = outputs.filter((file) => file.endsWith('.css'));
  if (!script) throw new Error(`${entry}: esbuild wrote no main script`);
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(options.title)}</title>`,
    ...styles.map((file) => `<link rel="stylesheet" href="./${file}">`),
    `<script type="module" src="./${script}"></script>`,
    '</head>',
    '<body></body>',
    '</html>',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(options.outDir, 'index.html'), html);
  // What the page loads at first: its script, stylesheets and what they import statically.
  const byName = new Map(Object.entries(result.metafile.outputs).map(([file, output]) => [relative(file), output]));
  const initial = new Set<string>(styles);
  const visit = (name: string) => {
    if (initial.has(name)) return;
    initial.add(name);
    for (const imported of byName.get(name)?.imports ?? []) if (imported.kind === 'import-statement' && !imported.external) visit(relative(imported.path));
  };
  visit(script);
  return measure(options.outDir, new Set(outputs.filter((file) => /\.js$/.test(file) && !initial.has(file) && !isWorker(file))));
}

/** Bundles the workspace shell's script (`src/shell/main.ts`) into `{outDir}/shell.js`; the platform fingerprints it with its other assets. */
export async function buildShell(outDir: string): Promise<BuiltUi> {
  const { build } = await esbuild();
  fs.rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: [path.join(kitRoot(), 'src', 'shell', 'main.ts')],
    outfile: path.join(outDir, 'shell.js'),
    bundle: true,
    format: 'esm',
    minify: true,
    target: TARGET,
    legalComments: 'none',
    logLevel: 'silent',
  });
  return measure(outDir);
}

/** The version of a package as node_modules folders above `dir` hold it ('' when none does). */
function versionOf(name: string, dir: string): string {
  for (let at = dir; ; at = path.dirname(at)) {
    const manifest = path.join(at, 'node_modules', name, 'package.json');
    if (fs.existsSync(manifest)) return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version?: string }).version ?? '';
    if (path.dirname(at) === at) return '';
  }
}

/** A hash of everything a build reads: the given folders' files, the kit's sources and the versions of its tools. */
export function sourcesHash(kind: string, dirs: readonly string[]): string {
  const hash = createHash('sha256').update(`wpk-ui-build 1\0${kind}\0`);
  const kit = kitRoot();
  for (const name of ['esbuild', 'lit', '@awesome.me/webawesome']) hash.update(`${name}@${versionOf(name, kit)}\0`);
  for (const dir of [...dirs, path.join(kit, 'src'), path.join(kit, 'styles'), path.join(kit, 'dist')]) {
    if (!fs.existsSync(dir)) continue;
    for (const file of filesOf(dir)) {
      if (dir.endsWith(`${path.sep}dist`) && file.includes(`${path.sep}shell${path.sep}`)) continue;
      hash.update(path.relative(dir, file)).update('\0').update(fs.readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex').slice(0, 24);
}

/** Where cached builds go: `WPK_UI_CACHE`, else a folder of the system's temporary directory. */
export function cacheRoot(): string {
  return process.env.WPK_UI_CACHE ?? path.join(os.tmpdir(), 'wpk-ui-cache');
}

/**
 * A build, from the cache when the same sources were built before: built into a temporary folder
 * and renamed into place, so processes building the same sources at once never see half a build.
 */
export async function cachedBuild(key: string, make: (outDir: string) => Promise<unknown>): Promise<string> {
  const root = cacheRoot();
  const dir = path.join(root, key);
  if (fs.existsSync(path.join(dir, '.complete'))) return dir;
  fs.mkdirSync(root, { recursive: true });
  const temporary = fs.mkdtempSync(path.join(root, `${key}.building-`));
  try {
    await make(temporary);
    fs.writeFileSync(path.join(temporary, '.complete'), '');
    try {
      fs.renameSync(temporary, dir);
    } catch (error) {
      // Another process finished the same build first: its folder is as good as ours.
      if (!fs.existsSync(path.join(dir, '.complete'))) throw error;
    }
    return dir;
  } finally {
    fs.rmSync(temporary, { recursive: true, force: true });
  }
}

/**
 * The folder to serve an app's front-end from, or null when it has none: its sources
 * (`ui/main.ts`, a checkout) are built into the cache; else the built folder it ships (`dist/ui`).
 */
export async function appUiFolder(appDir: string, title: string): Promise<string | null> {
  const sources = path.join(appDir, 'ui');
  if (fs.existsSync(path.join(sources, 'main.ts'))) {
    const key = `app-${sourcesHash(`app:${title}`, [sources])}`;
    return cachedBuild(key, (outDir) => buildAppUi({ appDir, outDir, title }));
  }
  const shipped = path.join(appDir, 'dist', 'ui');
  return fs.existsSync(path.join(shipped, 'index.html')) ? shipped : null;
}

/** The folder holding `shell.js`: built from the kit's sources in a checkout, else the one the package ships. */
export async function shellFolder(): Promise<string> {
  const kit = kitRoot();
  if (fs.existsSync(path.join(kit, 'src', 'shell', 'main.ts'))) return cachedBuild(`shell-${sourcesHash('shell', [])}`, buildShell);
  return path.join(kit, 'dist', 'shell');
}

/** The sizes of a built folder (for the budget check). */
export function measureBuild(dir: string): BuiltUi {
  return measure(dir);
}
