/**
 * CI's embedded-database stage runs each package's `test:embedded` script, not its whole suite
 * (.ci/README.md says why). This keeps that stage honest as packages and apps are added: every
 * package whose tests boot a platform names the files that prove the embedded database (or is
 * one of the few the README lists as not needing them, with the reason), and every file named
 * exists and is one of the package's tests.
 */
import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Packages whose tests boot a platform but stay out of the embedded stage, and why (as .ci/README.md says). */
const NOT_EMBEDDED: Record<string, string> = {
  '@wpk/cli': 'its tests that start a server force the embedded database in every stage',
  '@wpk/client-e2e': 'the generated client over HTTP: nothing of its own reaches the database',
};

interface Package {
  dir: string;
  name: string;
  scripts: Record<string, string>;
}

/** The workspace packages (pnpm-workspace.yaml's `dir/*` and `dir` entries). */
function workspacePackages(): Package[] {
  const globs = readFileSync(path.join(ROOT, 'pnpm-workspace.yaml'), 'utf8')
    .split('\n')
    .map((line) => /^\s+-\s+(\S+)\s*$/.exec(line)?.[1])
    .filter((entry): entry is string => Boolean(entry));
  const dirs = globs.flatMap((glob) =>
    glob.endsWith('/*')
      ? readdirSync(path.join(ROOT, glob.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => path.join(glob.slice(0, -2), entry.name))
      : [glob],
  );
  return dirs
    .filter((dir) => existsSync(path.join(ROOT, dir, 'package.json')))
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as { name: string; scripts?: Record<string, string> };
      return { dir, name: manifest.name, scripts: manifest.scripts ?? {} };
    });
}

/** Whether any test file of the package boots a platform (the harness or a runtime of its own). */
function bootsPlatform(dir: string): boolean {
  const testDir = path.join(ROOT, dir, 'test');
  if (!existsSync(testDir)) return false;
  return readdirSync(testDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .some((file) => /\b(?:createTestPlatform|startWorld|startTestRuntime|new Runtime)\(/.test(readFileSync(path.join(testDir, file), 'utf8')));
}

test('every package whose tests boot a platform names its embedded-database files, or says why not', (t) => {
  const missing = workspacePackages()
    .filter((pkg) => pkg.scripts.test && bootsPlatform(pkg.dir) && !pkg.scripts['test:embedded'] && !(pkg.name in NOT_EMBEDDED))
    .map((pkg) => `${pkg.dir} (${pkg.name}) boots a platform in its tests but has no test:embedded script`);
  t.deepEqual(missing, []);
});

test('every file a test:embedded script names exists among the package tests, and no script is empty', (t) => {
  const packages = workspacePackages().filter((pkg) => pkg.scripts['test:embedded']);
  t.true(packages.length >= 15, `${packages.length} packages run in the embedded stage`);
  const problems: string[] = [];
  for (const pkg of packages) {
    const [runner, ...files] = pkg.scripts['test:embedded']!.split(/\s+/);
    if (runner !== 'ava') problems.push(`${pkg.dir}: test:embedded runs ${runner}, not ava`);
    if (files.length === 0) problems.push(`${pkg.dir}: test:embedded names no file (it would run the whole suite)`);
    for (const file of files) {
      if (!/^test\/[\w./-]+\.test\.ts$/.test(file)) problems.push(`${pkg.dir}: ${file} is not a test file under test/`);
      else if (!existsSync(path.join(ROOT, pkg.dir, file))) problems.push(`${pkg.dir}: ${file} does not exist`);
    }
  }
  t.deepEqual(problems, []);
});

test('.ci/README.md names each package kept out of the embedded stage', (t) => {
  const readme = readFileSync(path.join(ROOT, '.ci/README.md'), 'utf8');
  const unnamed = Object.keys(NOT_EMBEDDED).filter((name) => !readme.includes(`\`${name.replace('@wpk/', '')}\``));
  t.deepEqual(unnamed, []);
});

test('.ci/README.md has a row for every stage of .ci/run, and .ci/run runs the cluster smoke on PostgreSQL', (t) => {
  const run = readFileSync(path.join(ROOT, '.ci/run'), 'utf8');
  const readme = readFileSync(path.join(ROOT, '.ci/README.md'), 'utf8');
  const stages = [...run.matchAll(/^\s*stage "?([^"\n]*)"?\s*$/gm)].map((match) => match[1].trim()).filter(Boolean);
  const rows = [...readme.matchAll(/^\| ([^|]+?) \|/gm)].map((match) => match[1]).filter((name) => name !== 'Stage' && !/^-+$/.test(name));
  t.deepEqual(
    stages.filter((stage) => !rows.some((row) => stage.startsWith(row))),
    [],
    'a stage whose name no row of the README table begins',
  );
  t.regex(run, /stage "cluster smoke \(PostgreSQL\)"\nDATABASE_URL="postgres:\/\/postgres@127\.0\.0\.1:5432\/\$db" CLUSTER_SMOKE=1 npx tsx bench\/cluster\.ts\n/);
  t.true(existsSync(path.join(ROOT, 'bench/cluster.ts')));
});
