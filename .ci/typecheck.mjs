#!/usr/bin/env node
// `pnpm typecheck`: every workspace package's TypeScript, checked as few programs as possible.
//
// Each package keeps its own tsconfig.json (and an app its ui/tsconfig.json), and `tsc -p` on one of
// them is still how you check one package. But each of those programs parses and checks everything
// it imports: with 13 apps, core and the SDK were checked about 20 times, and the stage took 203 s
// of CI on a quiet machine. Here the tsconfigs are grouped by their compiler options (after
// `extends`): the packages of a group become one program over the union of their `include`s, so a
// shared file is checked once per set of options. The groups are found, not listed: a new package
// or app is checked without touching this file. Then each app's generated files must be the ones
// `wpk types` writes (one `wpk types --check` over all of them). Programs run two at a time (a core each); the time
// of each is printed.
//
// Usage: node .ci/typecheck.mjs [--list]   (--list prints the programs without running them)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const workspace = fs.readFileSync(path.join(repo, 'pnpm-workspace.yaml'), 'utf8');
const patterns = [...workspace.matchAll(/^\s+-\s+(\S+)\s*$/gm)].map((match) => match[1].replace(/^['"]|['"]$/g, ''));

/** The workspace's package folders, from pnpm-workspace.yaml (`dir` or `dir/*`). */
function packageDirs() {
  const dirs = [];
  for (const pattern of patterns) {
    if (pattern.endsWith('/*')) {
      const parent = path.join(repo, pattern.slice(0, -2));
      if (!fs.existsSync(parent)) continue;
      for (const entry of fs.readdirSync(parent, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (entry.isDirectory()) dirs.push(path.join(parent, entry.name));
      }
    } else dirs.push(path.join(repo, pattern));
  }
  return dirs.filter((dir) => fs.existsSync(path.join(dir, 'package.json')));
}

/** A tsconfig's compiler options with its `extends` chain applied, and its includes as absolute paths. */
function readConfig(file) {
  const config = JSON.parse(fs.readFileSync(file, 'utf8'));
  let options = config.compilerOptions ?? {};
  if (config.extends) {
    const base = readConfig(path.resolve(path.dirname(file), config.extends));
    options = { ...base.options, ...options };
  }
  const include = (config.include ?? []).map((entry) => path.resolve(path.dirname(file), entry));
  return { options, include, references: config.references, files: config.files };
}

/** The packages with a `typecheck` script, and that script. */
const checked = packageDirs()
  .map((dir) => ({ dir, script: JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).scripts?.typecheck }))
  .filter((entry) => typeof entry.script === 'string');

/** The programs: one per distinct set of compiler options, over the union of the includes. */
function programs() {
  const groups = new Map();
  for (const { dir, script } of checked) {
    // Only what the package's own typecheck checks: its tsconfig.json, and an app's ui/tsconfig.json.
    for (const file of [path.join(dir, 'tsconfig.json'), path.join(dir, 'ui', 'tsconfig.json')]) {
      if (!fs.existsSync(file) || !script.includes(path.relative(dir, file))) continue;
      const { options, include, references, files } = readConfig(file);
      if (references || files) throw new Error(`${path.relative(repo, file)}: "references" and "files" are not grouped by .ci/typecheck.mjs; use "include"`);
      const key = JSON.stringify(Object.keys(options).sort().map((name) => [name, options[name]]));
      if (!groups.has(key)) groups.set(key, { options, include: [], configs: [] });
      const group = groups.get(key);
      group.include.push(...include.filter((entry) => fs.existsSync(entry)));
      group.configs.push(path.relative(repo, file));
    }
  }
  return [...groups.values()];
}

const found = programs();
if (process.argv.includes('--list')) {
  for (const [index, program] of found.entries()) console.log(`program ${index + 1}: ${program.configs.join(' ')}`);
  process.exit(0);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-typecheck-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const tsc = path.join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
const started = Date.now();

/** Runs one command; resolves with its exit code, printing its output after it ends (so two runs never interleave). */
function run(label, command, args) {
  const since = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      process.stdout.write(output);
      console.log(`${code === 0 ? 'ok' : 'FAILED'} ${label} (${((Date.now() - since) / 1000).toFixed(1)} s)`);
      resolve(code ?? 1);
    });
  });
}

const jobs = found.map((program, index) => () => {
  // The program's tsconfig lives in the repo's root folder's terms; `types` and module resolution
  // walk up from the files themselves and from the repo, as they do from each package.
  const file = path.join(dir, `program-${index + 1}.json`);
  fs.writeFileSync(file, JSON.stringify({ compilerOptions: { ...program.options, typeRoots: [path.join(repo, 'node_modules', '@types')] }, include: program.include }, null, 2));
  return run(`tsc: ${program.configs.join(' ')}`, process.execPath, [tsc, '-p', file]);
});

let failed = 0;
const queue = [...jobs];
await Promise.all([0, 1].map(async () => {
  while (queue.length > 0) {
    // (`failed += await ...` would read `failed` before the await and lose the other worker's count.)
    const code = await queue.shift()();
    if (code !== 0) failed += 1;
  }
}));
// Each app's app.json and src/app.types.ts are the ones `wpk types` would write from its code: one
// CLI process for every package whose typecheck runs `wpk types --check`.
const apps = checked.filter(({ script }) => script.includes('wpk types --check')).map(({ dir }) => path.relative(repo, dir));
if (apps.length > 0) {
  const code = await run(`generated app files (wpk types --check, ${apps.length} apps)`, 'npx', ['tsx', 'cli/src/bin.ts', 'types', '--check', ...apps]);
  if (code !== 0) failed += 1;
}
console.log(`typecheck: ${found.length} programs, ${failed === 0 ? 'no errors' : `${failed} failed`} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
process.exit(failed === 0 ? 0 : 1);
