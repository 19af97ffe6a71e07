/**
 * @wpk/core's root exports are its public API: what the CLI, @wpk/testing, the benches and the
 * operators' tools import. Everything else stays behind each folder's index.ts, so core can be
 * reorganised without breaking a consumer. Issue 36 cut 206 exported values to 50; this keeps the
 * surface small and every name on it used.
 */
import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as core from '../src/index.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The TypeScript and JavaScript sources outside packages/core (node_modules and builds left out). */
function sourcesOutsideCore(dir = ROOT): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (['node_modules', 'dist', '.git', '.turbo', '.wpk', 'release'].includes(entry) || entry.startsWith('.scratch')) continue;
    const full = path.join(dir, entry);
    if (full === path.join(ROOT, 'packages', 'core')) continue;
    if (statSync(full).isDirectory()) files.push(...sourcesOutsideCore(full));
    else if (/\.(ts|mjs)$/.test(entry)) files.push(full);
  }
  return files;
}

test('core exports at most 60 values', (t) => {
  const values = Object.keys(core);
  t.true(values.length <= 60, `${values.length} values: ${values.sort().join(', ')}`);
});

test('every value core exports is used outside core (the CLI, the harness, the benches) or by core tests through the root', (t) => {
  const outside = sourcesOutsideCore()
    .filter((file) => /@wpk\/core'|loadCore\(/.test(readFileSync(file, 'utf8')))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  const testDir = fileURLToPath(new URL('.', import.meta.url));
  const throughRoot = readdirSync(testDir)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => readFileSync(path.join(testDir, file), 'utf8'))
    .filter((text) => text.includes("from '../src/index.js'"))
    .join('\n');
  const unused = Object.keys(core).filter((name) => !new RegExp(`\\b${name}\\b`).test(outside) && !new RegExp(`\\b${name}\\b`).test(throughRoot));
  t.deepEqual(unused, []);
});
