import test from 'ava';
import fs from 'node:fs';
import type { Command } from 'commander';
import { buildProgram } from '../src/program.js';

const docs = fs.readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');

/** Every runnable command path: `start`, `workspace create`, ... */
function commandPaths(command: Command, prefix: string[] = []): string[] {
  return command.commands.flatMap((child) => {
    const path = [...prefix, child.name()];
    return child.commands.length > 0 ? commandPaths(child, path) : [path.join(' ')];
  });
}

test('docs/cli.md has a section for every command, and every option of it', (t) => {
  const program = buildProgram();
  const paths = commandPaths(program);
  t.true(paths.length >= 4);
  for (const path of paths) {
    t.true(docs.includes(`## \`wpk ${path}\``), `docs/cli.md lacks a "## \`wpk ${path}\`" section`);
    let command: Command = program;
    for (const name of path.split(' ')) command = command.commands.find((child) => child.name() === name)!;
    const section = docs.slice(docs.indexOf(`## \`wpk ${path}\``)).split(/\n## /)[0];
    for (const option of command.options) {
      t.true(section.includes(option.long!), `the "wpk ${path}" section of docs/cli.md does not mention ${option.long}`);
    }
  }
});

test('docs/platform-events.md is generated from the SDK catalog and names every platform event', async (t) => {
  const { platformEventsMarkdown } = await import('../src/types/platform-events-doc.js');
  const { PLATFORM_EVENTS } = await import('@wpk/sdk/tooling');
  const committed = fs.readFileSync(new URL('../../docs/platform-events.md', import.meta.url), 'utf8');
  t.is(committed, platformEventsMarkdown(), 'docs/platform-events.md is stale: run npx tsx cli/scripts/platform-events-doc.ts');
  t.is(PLATFORM_EVENTS.length, 20);
  for (const event of PLATFORM_EVENTS) t.true(committed.includes(`### \`${event.action}\``), event.action);
});

test('docs/configuration.md is generated from the configuration reference', async (t) => {
  const { configurationMarkdown } = await import('../src/docs/configuration-doc.js');
  const committed = fs.readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
  t.is(committed, configurationMarkdown(), 'docs/configuration.md is stale: run npx tsx cli/scripts/configuration-doc.ts');
});

/** Every environment variable the code reads: `env.X`, `env['X']`, `(… ?? process.env).X`, `num(env, 'X')`, `{ env: 'X' }`, commander's `.env('X')`. */
function variablesReadIn(dir: URL): Map<string, string> {
  const found = new Map<string, string>();
  const patterns = [/\benv\.([A-Z][A-Z0-9_]+)\b/g, /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g, /env\)\.([A-Z][A-Z0-9_]+)\b/g, /\benv,\s*['"]([A-Z][A-Z0-9_]+)['"]/g, /\benv:\s*['"]([A-Z][A-Z0-9_]+)['"]/g, /\.env\(['"]([A-Z][A-Z0-9_]+)['"]\)/g];
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts') || entry.parentPath.includes('node_modules')) continue;
    const file = `${entry.parentPath}/${entry.name}`;
    const text = fs.readFileSync(file, 'utf8');
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) if (!found.has(match[1])) found.set(match[1], file);
  }
  return found;
}

test('the configuration reference lists every environment variable the code reads, and only those', async (t) => {
  const { CONFIG_VARIABLES } = await import('@wpk/core');
  const listed = new Set(CONFIG_VARIABLES.map((variable) => variable.name));
  const read = new Map<string, string>();
  const roots = ['../../packages/', '../../cli/src/', '../../plugins/'];
  for (const root of roots) {
    const base = new URL(root, import.meta.url);
    const dirs = root.endsWith('src/') ? [base] : fs.readdirSync(base).map((name) => new URL(`${name}/src/`, base)).filter((dir) => fs.existsSync(dir));
    for (const dir of dirs) for (const [name, file] of variablesReadIn(dir)) if (!read.has(name)) read.set(name, file);
  }
  t.true(read.size >= 40, `only ${read.size} variables found: the scan is broken`);
  for (const [name, file] of read) t.true(listed.has(name), `${name} (read in ${file}) is missing from packages/core/src/config-reference.ts`);
  for (const name of listed) t.true(read.has(name), `${name} is in packages/core/src/config-reference.ts but no code reads it`);
});
