import { Command } from 'commander';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BUNDLE_DIR, readBundle, readPackageJson } from '../bundle.js';
import { CliError } from '../errors.js';
import { loadCore } from '../kit.js';
import { projectDir as projectDirOf } from '../options.js';

/** The package manager a project uses, by its lockfile (npm when there is none). */
export function packageManagerOf(projectDir: string): { name: string; args: (spec: string) => string[] } {
  if (fs.existsSync(path.join(projectDir, 'pnpm-lock.yaml'))) return { name: 'pnpm', args: (spec) => ['add', spec] };
  if (fs.existsSync(path.join(projectDir, 'yarn.lock'))) return { name: 'yarn', args: (spec) => ['add', spec] };
  if (fs.existsSync(path.join(projectDir, 'bun.lock')) || fs.existsSync(path.join(projectDir, 'bun.lockb'))) return { name: 'bun', args: (spec) => ['add', spec] };
  return { name: 'npm', args: (spec) => ['install', spec] };
}

/** `@wpk/app-tasks@^0.1.0` -> `@wpk/app-tasks`; `hello@1` -> `hello`. */
export function packageName(spec: string): string {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  return at === -1 ? spec : spec.slice(0, at);
}

const NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

/**
 * Adds `name` to the project's config file: the one `--config` / `WPK_CONFIG` names, else
 * wpk.config.json (created when the project has no config file). False when it is there already.
 */
async function addToConfig(projectDir: string, name: string): Promise<{ added: boolean; file: string }> {
  const { CONFIG_FILES } = await loadCore();
  const explicit = process.env.WPK_CONFIG ? path.resolve(process.env.WPK_CONFIG) : undefined;
  const existing = explicit ?? CONFIG_FILES.map((file) => path.join(projectDir, file)).find((file) => fs.existsSync(file));
  const shown = (file: string) => path.relative(process.cwd(), file) || file;
  if (existing && !existing.endsWith('.json')) throw new CliError(`${shown(existing)} is code, not data: add "${name}" to its apps by hand`);
  const file = existing ?? path.join(projectDir, 'wpk.config.json');
  const config = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { apps?: unknown[] }) : { apps: [] };
  const apps = Array.isArray(config.apps) ? config.apps : [];
  const listed = apps.some((entry) => entry === name || (typeof entry === 'object' && entry !== null && (entry as { package?: unknown }).package === name));
  if (listed) return { added: false, file: shown(file) };
  config.apps = [...apps, name];
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return { added: true, file: shown(file) };
}

/**
 * Where to install `spec` from: a tarball (`path/to/x.tgz`, or the package's tarball in `--bundle`
 * or in the project's own bundle folder) is copied into the project's BUNDLE_DIR and installed
 * from there, so the project installs again without it; anything else comes from the registry.
 */
function installSource(spec: string, projectDir: string, bundle: string | undefined): { name: string; install: string; from: string | null } {
  let tarball: string | null = null;
  if (spec.endsWith('.tgz')) {
    tarball = path.resolve(spec);
    if (!fs.existsSync(tarball)) throw new CliError(`${spec}: no such file`);
  } else if (bundle) {
    const folder = path.resolve(bundle);
    const entry = readBundle(folder).get(packageName(spec));
    if (!entry) throw new CliError(`${bundle} holds no ${packageName(spec)} (its packages: ${[...readBundle(folder).keys()].join(', ')})`);
    tarball = path.join(folder, entry.file);
  } else if (fs.existsSync(path.join(projectDir, BUNDLE_DIR))) {
    const entry = readBundle(path.join(projectDir, BUNDLE_DIR)).get(packageName(spec));
    if (entry) tarball = path.join(projectDir, BUNDLE_DIR, entry.file);
  }
  if (!tarball) return { name: packageName(spec), install: spec, from: null };
  const { name } = readPackageJson(tarball);
  const kept = path.join(projectDir, BUNDLE_DIR, path.basename(tarball));
  if (path.resolve(tarball) !== kept) {
    fs.mkdirSync(path.dirname(kept), { recursive: true });
    fs.copyFileSync(tarball, kept);
  }
  const relative = `./${BUNDLE_DIR}/${path.basename(tarball)}`;
  return { name, install: relative, from: relative.slice(2) };
}

function addApp(): Command {
  return new Command('app')
    .description("install an app package with the project's package manager and name it in wpk.config.json")
    .argument('<package>', 'the package, with an optional version (@wpk/app-tasks, @acme/wpk-hello@^1.0.0), or a package tarball (path/to/app.tgz)')
    .option('--bundle <folder>', "take the package's tarball from this bundle folder (made by pnpm release) instead of a registry")
    .option('--no-install', 'the package is installed already: only check it and add it to wpk.config.json')
    .action(async (spec: string, options: { install: boolean; bundle?: string }) => {
      const projectDir = projectDirOf();
      if (!fs.existsSync(path.join(projectDir, 'package.json'))) throw new CliError(`no package.json in ${projectDir}: run wpk add app in a project (wpk new project creates one)`);
      const source = options.install ? installSource(spec, projectDir, options.bundle) : { name: packageName(spec), install: spec, from: null };
      const name = source.name;
      if (!NAME.test(name)) throw new CliError(`"${spec}" is not a package name or a package tarball (.tgz) (a directory app goes in wpk.config.json as "./path")`);
      if (options.install) {
        const manager = packageManagerOf(projectDir);
        console.log(`installing ${source.from ? `${name} from ${source.from}` : spec} with ${manager.name}`);
        // Windows runs package managers through their .cmd shims.
        const result = spawnSync(manager.name, manager.args(source.install), { cwd: projectDir, stdio: 'inherit', shell: process.platform === 'win32' });
        if (result.error) throw new CliError(`cannot run ${manager.name}: ${result.error.message}`);
        if (result.status !== 0) throw new CliError(`${manager.name} could not install ${spec} (exit ${result.status})`);
      }
      // Refuse a package that is not a valid app before naming it: start-up would refuse it anyway.
      const { AppLoadError, loadApps } = await loadCore();
      let namespace: string;
      try {
        [{ namespace }] = await loadApps([{ package: name }], projectDir);
      } catch (error) {
        if (error instanceof AppLoadError) throw new CliError(`${name} is not a loadable app: ${error.problems.join('; ')}`);
        throw error;
      }
      const { added, file } = await addToConfig(projectDir, name);
      console.log(added ? `added ${name} (${namespace}) to ${file}` : `${name} (${namespace}) is already in ${file}`);
      if (added) console.log('restart the server to load it; wpk dev installs it in the demo workspace, elsewhere an admin installs it: POST /applications/' + namespace + '/installations');
    });
}

/** `wpk add app <package>`. */
export function addCommand(): Command {
  return new Command('add').description('add an app to the project').addCommand(addApp());
}
