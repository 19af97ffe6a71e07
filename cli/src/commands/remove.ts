import { Command } from 'commander';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline/promises';
import type { Runtime } from '@wpk/core';
import { CliError } from '../errors.js';
import { loadCore, loadSdkTooling } from '../kit.js';
import { dataDirOption, projectDir as projectDirOf, withRuntime } from '../options.js';
import { packageManagerOf } from './add.js';

interface RemoveOptions {
  purge?: boolean;
  yes?: boolean;
  uninstall: boolean;
  dataDir?: string;
}

/** One entry of the config file's `apps`, with what names it. */
interface ConfigEntry {
  index: number;
  /** How the entry reads in the file: `@wpk/app-tasks`, `./apps/hello`. */
  label: string;
  /** The installed package it names, if it names one. */
  packageName: string | null;
  namespace: string | null;
  schema: string | null;
}

const NAMESPACE = /^(ext\.[a-z0-9]+\.)?[a-z0-9_]+$/;

/** The app directory an entry names (null for a remote app or one that cannot be found), resolved against the config file's directory. */
async function entryDir(entry: unknown, base: string): Promise<string | null> {
  const { findPackageDir } = await loadCore();
  if (typeof entry === 'string') return entry.startsWith('.') || path.isAbsolute(entry) ? path.resolve(base, entry) : findPackageDir(entry, base);
  const record = (entry ?? {}) as Record<string, unknown>;
  if (typeof record.package === 'string') return findPackageDir(record.package, base);
  if (typeof record.dir === 'string') return path.resolve(base, record.dir);
  if (typeof record.manifest === 'string') return path.dirname(path.resolve(base, record.manifest));
  return null;
}

/** Reads the entries of a JSON config file with the namespace and schema of each app whose app.json can be read. */
async function configEntries(file: string): Promise<{ config: { apps?: unknown[] } & Record<string, unknown>; entries: ConfigEntry[] }> {
  const { appNamespace, appSchemaName } = await loadSdkTooling();
  const config = JSON.parse(fs.readFileSync(file, 'utf8')) as { apps?: unknown[] } & Record<string, unknown>;
  const base = path.dirname(file);
  const entries: ConfigEntry[] = [];
  for (const [index, entry] of (Array.isArray(config.apps) ? config.apps : []).entries()) {
    const record = (entry ?? {}) as Record<string, unknown>;
    const label = typeof entry === 'string' ? entry : String(record.package ?? record.dir ?? record.manifest ?? JSON.stringify(entry));
    const packageName = typeof entry === 'string' && !entry.startsWith('.') && !path.isAbsolute(entry) ? entry : typeof record.package === 'string' ? record.package : null;
    const dir = await entryDir(entry, base);
    const manifestFile = typeof record.manifest === 'string' ? path.resolve(base, record.manifest) : dir && path.join(dir, 'app.json');
    let namespace: string | null = null;
    let schema: string | null = null;
    if (manifestFile && fs.existsSync(manifestFile)) {
      try {
        const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { slug?: string; publisher?: string };
        if (manifest.slug) [namespace, schema] = [appNamespace(manifest.slug, manifest.publisher), appSchemaName(manifest.slug, manifest.publisher)];
      } catch {
        // An unreadable manifest: the entry is still matched by how it reads in the file.
      }
    }
    entries.push({ index, label, packageName, namespace, schema });
  }
  return { config, entries };
}

/** What --purge deletes, counted before it asks. */
interface AppData {
  tables: number;
  installations: number;
  searchEntries: number;
  files: Array<{ workspaceId: string; subdomain: string; key: string }>;
}

async function countData(runtime: Runtime, namespace: string, schema: string): Promise<AppData> {
  const sequelize = runtime.db.sequelize;
  const count = async (sql: string) => Number(((await sequelize.query(sql, { replacements: { namespace, schema } }))[0] as Array<{ n: string }>)[0].n);
  // An administrator's command over every workspace: the one place that reads across them.
  const [files] = await sequelize.query(
    'SELECT o.workspace_id AS "workspaceId", w.subdomain, o.key FROM platform.storage_objects o JOIN platform.workspaces w ON w.id = o.workspace_id WHERE o.namespace = :namespace',
    { replacements: { namespace } },
  );
  return {
    tables: await count("SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = :schema AND table_name <> 'migrations'"),
    installations: await count("SELECT count(*) AS n FROM platform.app_installations WHERE app_slug = :namespace AND status = 'installed'"),
    searchEntries: await count('SELECT count(*) AS n FROM platform.search_records WHERE app = :namespace'),
    files: files as AppData['files'],
  };
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const describe = (data: AppData, schema: string) =>
  `the schema ${schema} (${count(data.tables, 'table')}), its installations in ${count(data.installations, 'workspace')}, ${count(data.searchEntries, 'search entry', 'search entries')} and ${count(data.files.length, 'file')}`;

/** Deletes every workspace's data of an app: its schema (with its migrations' bookkeeping), installations, access requests, search entries and files. */
async function purge(runtime: Runtime, namespace: string, schema: string, data: AppData): Promise<void> {
  const sequelize = runtime.db.sequelize;
  await sequelize.transaction(async () => {
    await sequelize.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await sequelize.query('DELETE FROM platform.app_installations WHERE app_slug = :namespace', { replacements: { namespace } });
    await sequelize.query('DELETE FROM platform.app_requests WHERE app_slug = :namespace', { replacements: { namespace } });
    await sequelize.query('DELETE FROM platform.search_records WHERE app = :namespace', { replacements: { namespace } });
  });
  const unit = runtime.storage.unit();
  for (const file of data.files) await runtime.storage.delete({ workspaceId: file.workspaceId, subdomain: file.subdomain, namespace }, file.key, unit);
  await unit.finish(); // the files' bytes are gone when this returns
}

async function confirm(question: string, answer: string): Promise<boolean> {
  const prompt = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await prompt.question(question)).trim() === answer;
  } finally {
    prompt.close();
  }
}

function removeApp(): Command {
  return new Command('app')
    .description("take an app out of wpk.config.json and uninstall its package; its data stays in the database until --purge")
    .argument('<app>', 'as wpk.config.json names it (@wpk/app-tasks, ./apps/hello) or its namespace (tasks, ext.acme.hello)')
    .option('--purge', "also delete the app's data in every workspace: its schema, installations, search entries and files (asks first)")
    .option('--yes', 'do not ask before --purge (for scripts)')
    .option('--no-uninstall', 'leave the package installed: only take it out of wpk.config.json')
    .addOption(dataDirOption())
    .action(async (app: string, options: RemoveOptions) => {
      const projectDir = projectDirOf();
      const { CONFIG_FILES } = await loadCore();
      const file = process.env.WPK_CONFIG ? path.resolve(process.env.WPK_CONFIG) : CONFIG_FILES.map((name) => path.join(projectDir, name)).find((candidate) => fs.existsSync(candidate));
      const shownFile = file ? path.relative(process.cwd(), file) || file : 'wpk.config.json';
      if (file && !file.endsWith('.json')) throw new CliError(`${shownFile} is code, not data: remove the app from its apps by hand`);
      const { config, entries } = file && fs.existsSync(file) ? await configEntries(file) : { config: {}, entries: [] };
      const wanted = path.resolve(app);
      const entry = entries.find((candidate) => candidate.label === app || candidate.packageName === app || candidate.namespace === app || (candidate.label.startsWith('.') && path.resolve(path.dirname(file!), candidate.label) === wanted));
      if (!entry && !options.purge) throw new CliError(`${shownFile} does not name ${app} (its apps: ${entries.map((candidate) => candidate.label).join(', ') || 'none'})`);

      if (options.purge) {
        const { appSchemaName } = await loadSdkTooling();
        // An app already taken out of the config is purged by its namespace.
        const ext = /^ext\.([a-z0-9]+)\.([a-z0-9_]+)$/.exec(app);
        const namespace = entry?.namespace ?? (NAMESPACE.test(app) ? app : null);
        if (!namespace) throw new CliError(`${app} is not in ${shownFile}: name it by its namespace (tasks, ext.acme.hello) to purge its data`);
        const schema = entry?.schema ?? (ext ? appSchemaName(ext[2], ext[1]) : appSchemaName(namespace));
        if (!options.yes && !process.stdin.isTTY) throw new CliError('--purge deletes data for good: run it on a terminal to confirm, or pass --yes');
        await withRuntime({ dataDir: options.dataDir, configFile: false }, async (runtime) => {
          const data = await countData(runtime, namespace, schema);
          if (!options.yes) {
            console.log(`this deletes the data of ${namespace} in every workspace, for good: ${describe(data, schema)}.`);
            if (!(await confirm(`type ${namespace} to confirm: `, namespace))) throw new CliError('nothing deleted: the answer was not the app\'s namespace');
          }
          await purge(runtime, namespace, schema, data);
          console.log(`deleted the data of ${namespace}: ${describe(data, schema)}`);
        });
      }

      if (!entry) return;
      const apps = (config.apps ?? []).filter((_, index) => index !== entry.index);
      fs.writeFileSync(file!, `${JSON.stringify({ ...config, apps }, null, 2)}\n`);
      const name = entry.namespace ? `${entry.label} (${entry.namespace})` : entry.label;
      console.log(`removed ${name} from ${shownFile}`);
      if (options.uninstall && entry.packageName && dependsOn(projectDir, entry.packageName)) {
        const manager = packageManagerOf(projectDir);
        console.log(`uninstalling ${entry.packageName} with ${manager.name}`);
        const result = spawnSync(manager.name, [manager.name === 'npm' ? 'uninstall' : 'remove', entry.packageName], { cwd: projectDir, stdio: 'inherit', shell: process.platform === 'win32' });
        if (result.error) throw new CliError(`cannot run ${manager.name}: ${result.error.message}`);
        if (result.status !== 0) throw new CliError(`${manager.name} could not uninstall ${entry.packageName} (exit ${result.status})`);
      }
      if (!options.purge && entry.schema) {
        console.log(`its data stays in the database (the schema ${entry.schema}, its installations and settings in every workspace, its search entries and files): add the app again and it is back as it was.`);
        console.log(`to delete the data for good: wpk remove app ${entry.namespace} --purge (stop the servers first)`);
      }
    });
}

/** True when the project's package.json lists `name` among its dependencies. */
function dependsOn(projectDir: string, name: string): boolean {
  const file = path.join(projectDir, 'package.json');
  if (!fs.existsSync(file)) return false;
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, string> | undefined>;
  return ['dependencies', 'devDependencies', 'optionalDependencies'].some((field) => pkg[field]?.[name] !== undefined);
}

/** `wpk remove app <app>`. */
export function removeCommand(): Command {
  return new Command('remove').description('remove an app from the project').addCommand(removeApp());
}
