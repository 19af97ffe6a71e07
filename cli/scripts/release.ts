// `pnpm release`: builds every publishable package of the kit and packs each into one bundle
// folder (default release/), the npm tarballs a registry would serve. A project made with
// `wpk new project <dir> --bundle release` installs from them with no registry for @wpk/*; the same
// tarballs are what CI publishes to its local registry.
//
// Usage: pnpm release [--out <dir>] [--no-build]
// (--no-build packs the dist folders as they are)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPackageJson } from '../src/bundle.js';

const repo = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const outIndex = process.argv.indexOf('--out');
const out = path.resolve(outIndex > 0 ? process.argv[outIndex + 1] : path.join(repo, 'release'));
const started = performance.now();
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
/** A path as the user would type it: relative to the working directory when inside it. */
const shownPath = (dir: string) => {
  const relative = path.relative(process.cwd(), dir);
  return relative && !relative.startsWith('..') ? relative : dir;
};

/** The kit's publishable packages: every workspace package under cli, packages/ and plugins/ that is not private. */
function publicPackages(): Array<{ dir: string; name: string }> {
  const dirs = ['cli', ...['packages', 'plugins'].flatMap((parent) => fs.readdirSync(path.join(repo, parent)).map((name) => `${parent}/${name}`))];
  return dirs.flatMap((dir) => {
    const file = path.join(repo, dir, 'package.json');
    if (!fs.existsSync(file)) return [];
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name: string; private?: boolean };
    return pkg.private === true ? [] : [{ dir, name: pkg.name }];
  });
}

/** Runs pnpm over the packages; `onLine` sees each line of its output, which is printed whole if it fails. */
function pnpm(args: string[], onLine: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['--yes', 'pnpm@12.21.0', ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let partial = '';
    const take = (chunk: Buffer) => {
      output += chunk;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      lines.forEach(onLine);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pnpm ${args.join(' ')} exited ${code}:\n${output}`))));
  });
}

const packages = publicPackages();
const filters = packages.flatMap(({ dir }) => ['--filter', `./${dir}`]);
try {
  if (process.argv.includes('--no-build')) {
    console.log('build: skipped (--no-build: the dist folders are current)');
  } else {
    // pnpm builds them several at a time; each line says which one finished. Unsorted (--no-sort):
    // in the repository every package exports its sources, so no build reads another's dist/ and
    // none has to wait for another (the packages no longer form a cycle that would stop pnpm
    // sorting them, docs/decisions/0188-import-cycles.md; sorting would only serialise the builds).
    console.log(`building ${packages.length} packages (tsup: JavaScript and type declarations) ...`);
    const since = performance.now();
    let built = 0;
    await pnpm(['-r', '--no-sort', ...filters, '--reporter=append-only', 'run', 'build'], (line) => {
      const done = /^(\S+) build: Done$/.exec(line.trim());
      if (done) console.log(`  built ${packages.find((pkg) => pkg.dir === done[1])?.name ?? done[1]} (${++built}/${packages.length}, ${seconds(since)})`);
    });
  }
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  console.log(`packing them into ${shownPath(out)} ...`);
  // pnpm pack resolves workspace:* to the version and applies publishConfig (exports, bin: dist).
  await pnpm(['-r', ...filters, 'pack', '--pack-destination', out], () => {});
  const files = fs.readdirSync(out).filter((file) => file.endsWith('.tgz')).sort();
  let bytes = 0;
  for (const file of files) {
    const { name, version } = readPackageJson(path.join(out, file));
    const size = fs.statSync(path.join(out, file)).size;
    bytes += size;
    console.log(`  ${file}  ${name}@${version}  ${(size / 1024).toFixed(0)} KiB`);
  }
  if (files.length !== packages.length) throw new Error(`packed ${files.length} tarballs for ${packages.length} packages`);
  const shown = shownPath(out);
  console.log(`bundle ready in ${seconds(started)}: ${shown} (${files.length} packages, ${(bytes / 1024 / 1024).toFixed(1)} MiB)`);
  console.log('next, a project that installs from it (npm; no registry needed for @wpk/*):');
  console.log(`  npx --yes pnpm@12.21.0 wpk new project ../acme --bundle ${shown}`);
  console.log('  cd ../acme && npm install && npx wpk add app @wpk/app-tasks && npx wpk dev');
} catch (error) {
  console.error(`release: ${(error as Error).message}`);
  process.exitCode = 1;
}
