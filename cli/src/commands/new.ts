import { Command } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import { PUBLISHER_PATTERN, SLUG_PATTERN } from '@wpk/sdk';
import { CliError } from '../errors.js';
import { appTemplate } from '../scaffold/app-template.js';
import { projectTemplate } from '../scaffold/project-template.js';

/** `workspace:*` inside a pnpm workspace (the kit's own repository), a published range elsewhere. */
export function wpkVersionFor(dir: string): string {
  let current = path.resolve(dir);
  for (;;) {
    if (fs.existsSync(path.join(current, 'pnpm-workspace.yaml'))) return 'workspace:*';
    const parent = path.dirname(current);
    if (parent === current) return '^0.1.0';
    current = parent;
  }
}

/** Writes the files into `dir`, which must be missing or empty. */
function writeFiles(dir: string, files: Record<string, string>): void {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) throw new CliError(`${dir} exists and is not empty`);
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(dir, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

function newApp(): Command {
  return new Command('app')
    .description('scaffold a third-party app ext.{publisher}.{slug}: manifest, a route, a migration, an event, a subscription, a passing test')
    .argument('<slug>', 'the app slug: lowercase letters and digits, words joined by _')
    .option('--publisher <publisher>', 'the publisher (lowercase letters and digits)', 'local')
    .option('--dir <dir>', 'where to create it (default ./<slug>)')
    .action((slug: string, options: { publisher: string; dir?: string }) => {
      if (!SLUG_PATTERN.test(slug) || slug.length < 2 || slug.length > 40) throw new CliError(`slug "${slug}" must be 2-40 lowercase letters and digits, words joined by _`);
      if (!PUBLISHER_PATTERN.test(options.publisher) || options.publisher.length < 2 || options.publisher.length > 40) {
        throw new CliError(`--publisher "${options.publisher}" must be 2-40 lowercase letters and digits`);
      }
      const dir = path.resolve(options.dir ?? slug);
      writeFiles(dir, appTemplate({ slug, publisher: options.publisher, wpkVersion: wpkVersionFor(path.dirname(dir)) }));
      const namespace = `ext.${options.publisher}.${slug}`;
      console.log(`created ${namespace} in ${path.relative(process.cwd(), dir) || '.'}`);
      console.log(`next: install its dependencies, run its tests (npm test), and load it: wpk start --app ${path.relative(process.cwd(), dir) || '.'}`);
    });
}

function newProject(): Command {
  return new Command('project')
    .description('scaffold a self-host project: wpk.config.json naming apps, package.json, README')
    .argument('<dir>', 'the project directory (created; must be empty)')
    .action((dir: string) => {
      const absolute = path.resolve(dir);
      const name = path.basename(absolute).toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'wpk-project';
      writeFiles(absolute, projectTemplate({ name, wpkVersion: wpkVersionFor(path.dirname(absolute)) }));
      console.log(`created project ${name} in ${path.relative(process.cwd(), absolute) || '.'}`);
    });
}

export function newCommand(): Command {
  return new Command('new').description('scaffold an app or a project').addCommand(newApp()).addCommand(newProject());
}
