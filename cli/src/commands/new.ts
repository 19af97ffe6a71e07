import { Command } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import { CliError } from '../errors.js';
import { loadSdkTooling } from '../kit.js';
import { appManifest, appTemplate } from '../scaffold/app-template.js';
import { projectTemplate } from '../scaffold/project-template.js';
import { version } from '../version.js';

/** The @wpk packages' range outside a pnpm workspace: the published release this CLI belongs to. */
export const PUBLISHED_RANGE = `^${version}`;

/** A pnpm-workspace.yaml `packages` glob as a regular expression over relative paths. */
function globPattern(glob: string): RegExp {
  const body = glob.replace(/\/+$/, '').split('/').map((part) => (part === '**' ? '.*' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*'))).join('/');
  return new RegExp(`^${body}$`);
}

/** The `packages` globs of a pnpm-workspace.yaml (the list form the kit's own file uses). */
function workspaceGlobs(file: string): string[] {
  const globs: string[] = [];
  let inPackages = false;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (/^packages:\s*$/.test(line)) inPackages = true;
    else if (inPackages && /^\s+-\s*/.test(line)) globs.push(line.replace(/^\s+-\s*/, '').replace(/^['"]|['"]\s*$/g, '').trim());
    else if (/^\S/.test(line)) inPackages = false;
  }
  return globs;
}

/**
 * `workspace:*` for a package the enclosing pnpm workspace includes (the kit's own repository's
 * packages/*, examples/*, ...); the published range anywhere else, including a folder of a clone
 * that no workspace glob names: `workspace:*` cannot be installed there.
 */
export function wpkVersionFor(packageDir: string): string {
  const target = path.resolve(packageDir);
  let current = path.dirname(target);
  for (;;) {
    const file = path.join(current, 'pnpm-workspace.yaml');
    if (fs.existsSync(file)) {
      const relative = path.relative(current, target).split(path.sep).join('/');
      const globs = workspaceGlobs(file);
      const included = globs.some((glob) => !glob.startsWith('!') && globPattern(glob).test(relative));
      const excluded = globs.some((glob) => glob.startsWith('!') && globPattern(glob.slice(1)).test(relative));
      return included && !excluded ? 'workspace:*' : PUBLISHED_RANGE;
    }
    const parent = path.dirname(current);
    if (parent === current) return PUBLISHED_RANGE;
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
    .description('scaffold a third-party app ext.{publisher}.{slug}: a route, a permission, a migration, an event, a subscription, a searchable type, settings, typed contract, a passing test of each')
    .argument('<slug>', 'the app slug: lowercase letters and digits, words joined by _')
    .option('--publisher <publisher>', 'the publisher (lowercase letters and digits)', 'local')
    .option('--dir <dir>', 'where to create it (default ./<slug>)')
    .action(async (slug: string, options: { publisher: string; dir?: string }) => {
      const { PUBLISHER_PATTERN, SLUG_PATTERN } = await loadSdkTooling();
      if (!SLUG_PATTERN.test(slug) || slug.length < 2 || slug.length > 40) throw new CliError(`slug "${slug}" must be 2-40 lowercase letters and digits, words joined by _`);
      if (!PUBLISHER_PATTERN.test(options.publisher) || options.publisher.length < 2 || options.publisher.length > 40) {
        throw new CliError(`--publisher "${options.publisher}" must be 2-40 lowercase letters and digits`);
      }
      const dir = path.resolve(options.dir ?? slug);
      const { generateAppTypes } = await import('../types/generate.js');
      const types = await generateAppTypes(appManifest({ slug, publisher: options.publisher }) as Parameters<typeof generateAppTypes>[0]);
      writeFiles(dir, appTemplate({ slug, publisher: options.publisher, wpkVersion: wpkVersionFor(dir) }, types));
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
      writeFiles(absolute, projectTemplate({ name, wpkVersion: wpkVersionFor(absolute) }));
      console.log(`created project ${name} in ${path.relative(process.cwd(), absolute) || '.'}`);
    });
}

export function newCommand(): Command {
  return new Command('new').description('scaffold an app or a project').addCommand(newApp()).addCommand(newProject());
}
