import { Command } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import { BUNDLE_DIR, bundleSpec, readBundle } from '../bundle.js';
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
      const shown = path.relative(process.cwd(), dir) || '.';
      console.log(`created ${namespace} in ${shown}`);
      const parent = path.dirname(dir);
      const root = path.dirname(parent);
      if (path.basename(parent) === 'apps' && fs.readdirSync(root).some((name) => /^wpk\.config\.(json|ts|mjs|js)$/.test(name))) {
        // In a project made by wpk new project: apps/* are its npm workspaces, wpk.config.json names what the server loads.
        const entry = path.relative(root, dir).split(path.sep).join('/');
        console.log(`next: npm install && npm test -w ${entry}, then add "./${entry}" to apps in wpk.config.json (the server loads the apps it names)`);
      } else {
        console.log(`next: cd ${shown} && npm install && npm test; try it with wpk dev --app ${shown}, or name it in a project's wpk.config.json`);
      }
    });
}

/** What a project made from a bundle depends on, and its tarballs to copy into the project: every tarball of the folder. */
function bundleDependencies(folder: string): { dependencies: Record<string, string>; devDependencies: Record<string, string>; files: string[] } {
  const packages = readBundle(folder);
  const versions = new Set([...packages.values()].map((entry) => entry.version));
  // The tarballs pin each other's exact version: one bundle is one release.
  if (versions.size > 1) throw new CliError(`${folder} mixes releases (${[...versions].join(', ')}): make the bundle again with pnpm release`);
  const missing = ['@wpk/cli', '@wpk/core', '@wpk/sdk'].filter((name) => !packages.has(name));
  if (missing.length > 0) throw new CliError(`${folder} lacks ${missing.join(', ')}: a bundle made by pnpm release holds every package`);
  const spec = (name: string) => bundleSpec(packages.get(name)!.file);
  return {
    // The CLI's own @wpk dependencies are named too (core, sdk, and the UI kit with the client it
    // uses): npm then takes them, for the CLI and for apps, from these tarballs, not a registry.
    dependencies: Object.fromEntries(['@wpk/cli', '@wpk/core', '@wpk/sdk', '@wpk/ui', '@wpk/client'].filter((name) => packages.has(name)).map((name) => [name, spec(name)])),
    devDependencies: packages.has('@wpk/testing') ? { '@wpk/testing': spec('@wpk/testing') } : {},
    files: [...packages.values()].map((entry) => entry.file),
  };
}

function newProject(): Command {
  return new Command('project')
    .description('scaffold a self-host project: wpk.config.json naming apps, package.json, README')
    .argument('<dir>', 'the project directory (created; must be empty)')
    .option('--bundle <folder>', 'install the @wpk packages from the tarballs of this folder (made by pnpm release), copied into the project, instead of a registry')
    .action((dir: string, options: { bundle?: string }) => {
      const absolute = path.resolve(dir);
      const name = path.basename(absolute).toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'wpk-project';
      // A tarball of the bundle stands for its folder.
      const folder = options.bundle && path.resolve(options.bundle.endsWith('.tgz') ? path.dirname(options.bundle) : options.bundle);
      const bundle = folder ? bundleDependencies(folder) : undefined;
      writeFiles(absolute, projectTemplate({ name, wpkVersion: wpkVersionFor(absolute), bundle }));
      if (folder && bundle) {
        fs.mkdirSync(path.join(absolute, BUNDLE_DIR));
        for (const file of bundle.files) fs.copyFileSync(path.join(folder, file), path.join(absolute, BUNDLE_DIR, file));
      }
      const shown = path.relative(process.cwd(), absolute) || '.';
      console.log(`created project ${name} in ${shown}${bundle ? ` with the ${bundle.files.length} packages of ${path.relative(process.cwd(), folder!) || folder} in ${BUNDLE_DIR}/` : ''}`);
      console.log(`next: cd ${shown} && npm install && npx wpk add app @wpk/app-tasks && npx wpk dev`);
    });
}

export function newCommand(): Command {
  return new Command('new').description('scaffold an app or a project').addCommand(newApp()).addCommand(newProject());
}
