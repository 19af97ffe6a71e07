import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyAppDefinition, AppManifest, ManifestProblem } from '@wpk/sdk';
import { appNamespace, appSchemaName, codeFacts, formatManifestProblem, isAppDefinition, validateManifest } from '@wpk/sdk/tooling';

/**
 * One app the runtime configuration names. A string is a package name, or a directory when it
 * starts with `.` or `/`. First-party is the configuration's decision: `firstParty: true`, or a
 * package of the kit's own `@wpk/` scope (installed, or a directory holding one). Never the
 * manifest's.
 */
export type AppEntry =
  | string
  | { package: string; firstParty?: boolean }
  | { dir: string; firstParty?: boolean }
  | { manifest: string; address?: string; firstParty?: boolean }
  | { app: AnyAppDefinition; dir?: string; firstParty?: boolean };

/** An app as loaded and validated: manifest, code (absent for a remote app), where it came from. */
export interface LoadedApp {
  /** `tasks` or `ext.acme.hello`: permission keys, events and role slices use it. */
  namespace: string;
  slug: string;
  publisher: string | null;
  firstParty: boolean;
  manifest: AppManifest;
  /** The code; null for a remote app. */
  definition: AnyAppDefinition | null;
  /** Remote apps: where event deliveries go. */
  address: string | null;
  /** The manifest file, as messages name it. */
  file: string;
  /** The absolute folder of the manifest file (its `public` folder is relative to it); null without one. */
  dir: string | null;
  /** The app's Postgres schema (`app_tasks`, `ext_acme_hello`). */
  schema: string;
  /** Prefix of the app's routes: `` for first-party apps, `/ext/{publisher}/{slug}` for third parties. */
  routePrefix: string;
  /** Every permission key the app declares. */
  declaredKeys: string[];
}

/** Raised at start-up when an app cannot be loaded; lists every problem, each naming file and field. */
export class AppLoadError extends Error {
  constructor(readonly problems: string[]) {
    super(`Cannot start: ${problems.length === 1 ? 'an app is invalid' : `${problems.length} problems in apps`}\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.name = 'AppLoadError';
  }
}

/** Slugs a first-party app may not take (the SDK's list; its manifest validator refuses them). */
export { RESERVED_SLUGS } from '@wpk/sdk/tooling';

const ENTRY_CANDIDATES = ['src/index.ts', 'src/index.js', 'index.ts', 'index.js', 'dist/index.js'];

function readJson(file: string): { value: unknown } | { error: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return { error: `cannot be read: ${(error as Error).message}` };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: `is not valid JSON: ${(error as Error).message}` };
  }
}

/** The directory of an installed package, looked up in node_modules from `from` upwards. */
export function findPackageDir(name: string, from: string): string | null {
  let dir = path.resolve(from);
  for (;;) {
    const candidate = path.join(dir, 'node_modules', ...name.split('/'));
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** The module file of an app directory: package.json `exports["."]` / `main`, else src/index.ts and friends. */
export function findEntryModule(dir: string): string | null {
  const pkg = readJson(path.join(dir, 'package.json'));
  if ('value' in pkg && pkg.value && typeof pkg.value === 'object') {
    const { exports, main } = pkg.value as { exports?: unknown; main?: unknown };
    let target: unknown = exports;
    if (target && typeof target === 'object' && '.' in (target as object)) target = (target as Record<string, unknown>)['.'];
    if (target && typeof target === 'object') target = (target as Record<string, unknown>).import ?? (target as Record<string, unknown>).default;
    for (const candidate of [target, main]) {
      if (typeof candidate === 'string' && fs.existsSync(path.join(dir, candidate))) return path.join(dir, candidate);
    }
  }
  for (const candidate of ENTRY_CANDIDATES) if (fs.existsSync(path.join(dir, candidate))) return path.join(dir, candidate);
  return null;
}

/** True when the directory holds a package of the kit's own `@wpk/` scope (a first-party app). */
export function isKitPackage(dir: string): boolean {
  const pkg = readJson(path.join(dir, 'package.json'));
  return 'value' in pkg && typeof (pkg.value as { name?: unknown } | null)?.name === 'string' && (pkg.value as { name: string }).name.startsWith('@wpk/');
}

let typeScriptHooks: Promise<void> | null = null;

/** tsx's ESM register API as the app's (or its project's) dependencies hold it, or null. */
function findTsx(dir: string): string | null {
  try {
    // require.resolve picks tsx's CommonJS build of the API; its ESM build sits beside it.
    return createRequire(path.join(dir, 'package.json')).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs');
  } catch {
    return null;
  }
}

/**
 * Imports an app's entry module. A TypeScript entry (an app of the project that is not built,
 * such as one `wpk new app` made) needs tsx's loader: the published CLI runs plain JavaScript, so
 * tsx is registered on first need, from the app's own dependencies (the scaffold lists it).
 * Node's own type stripping is not enough: the sources import `./x.js` for `./x.ts`.
 */
async function importEntry(file: string, dir: string): Promise<unknown> {
  const typeScript = /\.[mc]?ts$/.test(file);
  // The repository's own loader (tools/ts-hooks, which its tests run under) already runs TypeScript.
  const hooked = (globalThis as Record<symbol, unknown>)[Symbol.for('wpk.typescript-hooks')] === true;
  const tsx = typeScript && !hooked ? findTsx(dir) : null;
  if (tsx) {
    typeScriptHooks ??= import(pathToFileURL(tsx).href).then((api: { register: () => unknown }) => void api.register());
    await typeScriptHooks;
  }
  try {
    return await import(pathToFileURL(file).href);
  } catch (error) {
    if (typeScript && !tsx && !hooked) throw new Error(`${(error as Error).message} (a TypeScript entry needs tsx: add it to the app's devDependencies and install, or build the app to JavaScript)`, { cause: error });
    throw error;
  }
}

/**
 * The app definition an app directory's entry module exports (`defineApp(...)`), imported as the
 * runtime would but not validated: what `wpk manifest` reads to rewrite a stale app.json. Null
 * when the directory has no entry module.
 */
export async function importAppDefinition(dir: string): Promise<AnyAppDefinition | null> {
  const file = findEntryModule(dir);
  if (!file) return null;
  const module = (await importEntry(file, dir)) as { default?: unknown };
  if (!isAppDefinition(module.default)) throw new Error(`${file}: its default export is not the value defineApp returned`);
  return module.default;
}

interface ResolvedEntry {
  label: string;
  firstParty: boolean;
  manifestFile: string | null;
  manifest: unknown;
  definition: AnyAppDefinition | null;
  entryModule: string | null;
  addressOverride: string | null;
}

function display(file: string, projectDir: string): string {
  const relative = path.relative(projectDir, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

async function resolveEntry(entry: AppEntry, projectDir: string, problems: string[]): Promise<ResolvedEntry | null> {
  const normalized = typeof entry === 'string' ? (entry.startsWith('.') || path.isAbsolute(entry) ? { dir: entry } : { package: entry }) : entry;
  let dir: string | null = null;
  let manifestFile: string | null = null;
  let firstParty = normalized.firstParty === true;
  let label: string;
  let definition: AnyAppDefinition | null = null;
  let addressOverride: string | null = null;

  if ('app' in normalized) {
    if (!isAppDefinition(normalized.app)) {
      problems.push('apps: an entry { app } must be the value defineApp returned');
      return null;
    }
    definition = normalized.app;
    dir = normalized.dir ? path.resolve(projectDir, normalized.dir) : null;
    label = dir ? display(dir, projectDir) : `app ${String(normalized.app.manifest.slug)}`;
  } else if ('package' in normalized) {
    dir = findPackageDir(normalized.package, projectDir);
    label = normalized.package;
    if (!dir) {
      problems.push(`apps: package ${normalized.package} is not installed (looked in node_modules from ${projectDir})`);
      return null;
    }
    firstParty = firstParty || normalized.package.startsWith('@wpk/');
  } else if ('dir' in normalized) {
    dir = path.resolve(projectDir, normalized.dir);
    label = display(dir, projectDir);
    if (!fs.existsSync(dir)) {
      problems.push(`apps: directory ${label} does not exist`);
      return null;
    }
    firstParty = firstParty || isKitPackage(dir);
  } else {
    manifestFile = path.resolve(projectDir, normalized.manifest);
    label = display(manifestFile, projectDir);
    addressOverride = normalized.address ?? null;
  }

  if (!manifestFile && dir) manifestFile = path.join(dir, 'app.json');
  let manifest: unknown = definition?.manifest;
  if (manifestFile && (fs.existsSync(manifestFile) || !definition)) {
    const read = readJson(manifestFile);
    if ('error' in read) {
      problems.push(`${display(manifestFile, projectDir)}: ${read.error}`);
      return null;
    }
    manifest = read.value;
  } else if (definition) {
    manifestFile = null;
  }

  const isRemote = !!manifest && typeof manifest === 'object' && typeof (manifest as { address?: unknown }).address === 'string';
  let entryModule: string | null = null;
  if (!definition && dir && !isRemote && !addressOverride) {
    entryModule = findEntryModule(dir);
    if (!entryModule) {
      problems.push(`${label}: no entry module (package.json exports or main, or src/index.ts) and no address: an app is either code or a remote address`);
      return null;
    }
    try {
      const loaded = (await importEntry(entryModule, dir)) as { default?: unknown };
      if (!isAppDefinition(loaded.default)) {
        problems.push(`${display(entryModule, projectDir)}: the default export must be defineApp(manifest, { ... }) from @wpk/sdk`);
        return null;
      }
      definition = loaded.default;
    } catch (error) {
      problems.push(`${display(entryModule, projectDir)}: cannot be loaded: ${(error as Error).message}`);
      return null;
    }
  }
  return { label, firstParty, manifestFile, manifest, definition, entryModule, addressOverride };
}

/**
 * Loads and validates every configured app. Refuses (AppLoadError) on any problem: a missing
 * package or directory, a manifest that breaks a rule (file and field named), code that does not
 * match its manifest, two apps with one namespace.
 */
export async function loadApps(entries: readonly AppEntry[], projectDir: string): Promise<LoadedApp[]> {
  const problems: string[] = [];
  const apps: LoadedApp[] = [];
  const byNamespace = new Map<string, string>();
  for (const entry of entries) {
    const resolved = await resolveEntry(entry, projectDir, problems);
    if (!resolved) continue;
    const file = resolved.manifestFile ? display(resolved.manifestFile, projectDir) : `${resolved.label} (defineApp manifest)`;
    const report = (found: ManifestProblem[]) => problems.push(...found.map(formatManifestProblem));
    const before = problems.length;
    report(validateManifest(resolved.manifest, { firstParty: resolved.firstParty, file, code: resolved.definition ? codeFacts(resolved.definition) : undefined }));
    if (problems.length > before) continue;
    const manifest = resolved.manifest as AppManifest;
    const publisher = manifest.publisher ?? null;
    if (resolved.definition && resolved.manifestFile) {
      const code = resolved.definition.manifest;
      if (code.slug !== manifest.slug || (code.publisher ?? null) !== publisher) {
        problems.push(`${file}: slug: the app's code declares ${appNamespace(String(code.slug), code.publisher)} (defineApp) but the manifest says ${appNamespace(manifest.slug, publisher)}`);
        continue;
      }
    }
    const namespace = appNamespace(manifest.slug, publisher);
    if (byNamespace.has(namespace)) {
      problems.push(`${file}: slug: app ${namespace} is already loaded from ${byNamespace.get(namespace)}`);
      continue;
    }
    byNamespace.set(namespace, file);
    apps.push({
      namespace,
      slug: manifest.slug,
      publisher,
      firstParty: resolved.firstParty,
      manifest,
      definition: resolved.definition,
      address: resolved.addressOverride ?? manifest.address ?? null,
      file,
      dir: resolved.manifestFile ? path.dirname(resolved.manifestFile) : null,
      schema: appSchemaName(manifest.slug, publisher),
      routePrefix: publisher ? `/ext/${publisher}/${manifest.slug}` : '',
      declaredKeys: manifest.permissions.map((permission) => permission.key),
    });
  }
  if (problems.length > 0) throw new AppLoadError(problems);
  return apps;
}
