import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AppLoadError, type AppEntry } from './loader.js';

/** What a project's `wpk.config` file says. */
export interface ProjectConfig {
  /** The file it came from (null when there is none). */
  file: string | null;
  /** The apps to load. */
  apps: AppEntry[];
  /** Opt-in: each app runs under its own database role (real PostgreSQL). */
  strictAppRoles?: boolean;
}

/** File names looked up in the project directory, in this order. */
export const CONFIG_FILES = ['wpk.config.json', 'wpk.config.ts', 'wpk.config.mjs', 'wpk.config.js'];

function entryProblem(entry: unknown): string | null {
  if (typeof entry === 'string') return entry.length > 0 ? null : 'must not be empty';
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return 'must be a package name, a directory, or an object {package}, {dir}, {manifest, address} or {app}';
  const keys = Object.keys(entry);
  const kinds = keys.filter((key) => ['package', 'dir', 'manifest', 'app'].includes(key));
  if (kinds.length !== 1) return 'must have exactly one of package, dir, manifest, app';
  const allowed = new Set([kinds[0], 'firstParty', ...(kinds[0] === 'manifest' ? ['address'] : []), ...(kinds[0] === 'app' ? ['dir'] : [])]);
  const extra = keys.filter((key) => !allowed.has(key));
  if (extra.length) return `has unknown field ${extra.join(', ')}`;
  const record = entry as Record<string, unknown>;
  if (kinds[0] !== 'app' && typeof record[kinds[0]] !== 'string') return `${kinds[0]} must be a string`;
  if ('firstParty' in record && typeof record.firstParty !== 'boolean') return 'firstParty must be true or false';
  if ('address' in record && typeof record.address !== 'string') return 'address must be a URL string';
  return null;
}

/**
 * Reads the project's config file: `file` when given, else the first of CONFIG_FILES in
 * `projectDir`; none is fine (no apps). Refuses a malformed file, naming it and the field.
 */
export async function readProjectConfig(projectDir: string, file?: string): Promise<ProjectConfig> {
  const found = file ? path.resolve(projectDir, file) : CONFIG_FILES.map((name) => path.join(projectDir, name)).find((candidate) => fs.existsSync(candidate));
  if (!found) return { file: null, apps: [] };
  if (file && !fs.existsSync(found)) throw new Error(`the config file ${found} does not exist (named by --config or WPK_CONFIG)`);
  const label = path.relative(projectDir, found) || found;
  let value: unknown;
  try {
    if (found.endsWith('.json')) value = JSON.parse(fs.readFileSync(found, 'utf8'));
    else value = ((await import(pathToFileURL(found).href)) as { default?: unknown }).default;
  } catch (error) {
    throw new AppLoadError([`${label}: cannot be read: ${(error as Error).message}`]);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new AppLoadError([`${label}: must be an object { apps: [...] }`]);
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(record)) if (!['apps', 'strictAppRoles', '$schema'].includes(key)) problems.push(`${label}: ${key}: is not a wpk.config field (apps, strictAppRoles)`);
  if (record.apps !== undefined && !Array.isArray(record.apps)) problems.push(`${label}: apps: must be an array`);
  const apps = Array.isArray(record.apps) ? record.apps : [];
  apps.forEach((entry, index) => {
    const problem = entryProblem(entry);
    if (problem) problems.push(`${label}: apps[${index}]: ${problem}`);
  });
  if (record.strictAppRoles !== undefined && typeof record.strictAppRoles !== 'boolean') problems.push(`${label}: strictAppRoles: must be true or false`);
  if (problems.length) throw new AppLoadError(problems);
  // Relative paths in the file are relative to the file's own directory.
  const base = path.dirname(found);
  const resolved = (apps as AppEntry[]).map((entry): AppEntry => {
    if (typeof entry === 'string') return entry.startsWith('.') ? { dir: path.resolve(base, entry) } : entry;
    if ('dir' in entry && typeof entry.dir === 'string') return { ...entry, dir: path.resolve(base, entry.dir) } as AppEntry;
    if ('manifest' in entry) return { ...entry, manifest: path.resolve(base, entry.manifest) };
    return entry;
  });
  return { file: found, apps: resolved, strictAppRoles: record.strictAppRoles as boolean | undefined };
}
