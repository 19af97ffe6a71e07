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
  t.is(PLATFORM_EVENTS.length, 17);
  for (const event of PLATFORM_EVENTS) t.true(committed.includes(`### \`${event.action}\``), event.action);
});
