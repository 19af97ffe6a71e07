/**
 * Checks of an app's docs page (`docs/apps/{slug}.md`) against its manifest: every route of the
 * authorization table has its `### METHOD /path` section, and nothing else is documented as one.
 */

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROUTE_HEADING = /^### (GET|POST|PUT|PATCH|DELETE) (\S+)$/gm;

/** The routes a docs page documents (its `### METHOD /path` headings), as `METHOD /path`, sorted. */
export function documentedRoutes(doc: string): string[] {
  return [...doc.matchAll(ROUTE_HEADING)].map((match) => `${match[1]} ${match[2]}`).sort();
}

/** The routes of a manifest's authorization table, as `METHOD /path`, sorted. */
export function manifestRoutes(manifest: { authorization: ReadonlyArray<{ method: string; path: string }> }): string[] {
  return manifest.authorization.map((entry) => `${entry.method} ${entry.path}`).sort();
}

/** The `### ` sections of a docs page, each starting with its heading's text; `routesOnly`: only the routes' sections. */
export function docSections(doc: string, options: { routesOnly?: boolean } = {}): string[] {
  const sections = doc.split(/^### /m).slice(1);
  return options.routesOnly ? sections.filter((section) => /^(GET|POST|PUT|PATCH|DELETE) /.test(section)) : sections;
}

/**
 * The `names` a docs page leaves out (permission keys, event actions, settings): each must stand in
 * it between `quote`s (default a backtick: `` `tasks.boards.read` ``). `grouped`: a name also counts
 * as named where the page names its group (the name without its last part, in backticks with a
 * trailing dot: `` `tasks.boards.` ``) and its last part, anywhere (`'bare'`) or in backticks
 * (`'quoted'`), as a table of a group's keys does.
 */
export function unnamedInDoc(doc: string, names: readonly string[], options: { quote?: string; grouped?: 'bare' | 'quoted' } = {}): string[] {
  const quote = options.quote ?? '`';
  const named = (name: string) => {
    if (doc.includes(`${quote}${name}${quote}`)) return true;
    if (!options.grouped) return false;
    const last = name.slice(name.lastIndexOf('.') + 1);
    const group = name.slice(0, name.lastIndexOf('.') + 1);
    return doc.includes(`\`${group}`) && doc.includes(options.grouped === 'quoted' ? `\`${last}\`` : last);
  };
  return names.filter((name) => !named(name));
}

/** How a docs page names one kind of name (see `unnamedInDoc`). */
export interface NameCheck {
  /** What stands either side of a name (default a backtick). */
  quote?: string;
  /** A name also counts as named where the page names its group and its last part (see `unnamedInDoc`). */
  grouped?: 'bare' | 'quoted';
}

/** The parts of an app's manifest (app.json) `testAppDoc` reads. */
export interface DocManifest {
  authorization: ReadonlyArray<{ method: string; path: string }>;
  permissions?: ReadonlyArray<{ key: string }>;
  events?: ReadonlyArray<{ action: string }>;
  subscriptions?: ReadonlyArray<{ action: string }>;
  settings?: { schema?: { properties?: Record<string, unknown> }; defaults?: Record<string, unknown> };
}

/** What `testAppDoc` checks of an app's docs page. */
export interface AppDocOptions {
  manifest: DocManifest;
  /** The docs page (a file URL or path). Test titles name it from its `docs/` folder on (`docs/apps/tasks.md`), or by its file name. */
  doc: URL | string;
  /** Which `### ` sections must hold a curl example: every one (default), or only the routes' (a page with other `### ` sections). */
  curlIn?: 'all' | 'routes';
  /** What a section's curl example looks like (default: a sh block opening with `curl `). */
  curl?: RegExp;
  /** How the page names each permission key (default: in backticks); false: not checked here. */
  permissions?: NameCheck | false;
  /** How the page names each emitted event's action (default: in backticks); false: not checked here. */
  events?: NameCheck | false;
  /** Each setting the page names: the settings schema's properties or the defaults' keys (default: not checked). */
  settings?: NameCheck & { from: 'schema' | 'defaults' };
  /** How the page names each subscription's action (default: not checked). */
  subscriptions?: NameCheck;
}

/** The assertions `testAppDoc`'s tests make (an ava `t` fits). */
export interface DocAssertions {
  deepEqual(actual: unknown, expected: unknown, message?: string): unknown;
  regex(contents: string, regex: RegExp, message?: string): unknown;
}

/** Where `testAppDoc` registers its tests (ava's `test` fits). */
export type DocTestFn = (title: string, implementation: (t: DocAssertions) => void) => unknown;

/** How a test title names a docs page: from its `docs/` folder on, or by its file name. */
function pageName(file: string): string {
  const at = file.lastIndexOf('/docs/');
  return at >= 0 ? file.slice(at + 1) : file.slice(file.lastIndexOf('/') + 1);
}

/** `a`, `a and b`, `a, b and c`. */
function listed(parts: string[]): string {
  return parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/**
 * Registers an app's docs checks against its manifest, and answers the page's text (for the app's
 * own further checks):
 *
 * - `{page} documents every route of the authorization table, each with a curl example, and nothing
 *   else`: its `### METHOD /path` sections are exactly the table's routes, and each section (or each
 *   route's, `curlIn: 'routes'`) holds a curl example; a missing one names its section.
 * - `{page} names every permission, every emitted event, ...`: each name the options ask for stands
 *   in the page (`unnamedInDoc`); a failure lists the names left out. Not registered when nothing is asked.
 *
 * ```ts
 * testAppDoc(test, { manifest, doc: new URL('../../../docs/apps/tasks.md', import.meta.url), events: { grouped: 'quoted' } });
 * ```
 */
export function testAppDoc(test: DocTestFn, options: AppDocOptions): string {
  const file = typeof options.doc === 'string' ? options.doc : fileURLToPath(options.doc);
  const doc = fs.readFileSync(file, 'utf8');
  const page = pageName(file.split(path.sep).join('/'));
  const curl = options.curl ?? /```sh\ncurl /;
  const { manifest } = options;
  test(`${page} documents every route of the authorization table, each with a curl example, and nothing else`, (t) => {
    t.deepEqual(documentedRoutes(doc), manifestRoutes(manifest));
    for (const section of docSections(doc, { routesOnly: options.curlIn === 'routes' })) t.regex(section, curl, section.split('\n')[0]);
  });
  const settings = options.settings && Object.keys((options.settings.from === 'schema' ? manifest.settings?.schema?.properties : manifest.settings?.defaults) ?? {});
  const kinds: Array<[string, readonly string[], NameCheck | false | undefined]> = [
    ['every permission', (manifest.permissions ?? []).map((permission) => permission.key), options.permissions ?? {}],
    ['every emitted event', (manifest.events ?? []).map((event) => event.action), options.events ?? {}],
    ['every subscription', (manifest.subscriptions ?? []).map((subscription) => subscription.action), options.subscriptions ?? false],
    ['every setting', settings ?? [], options.settings ?? false],
  ];
  const checked = kinds.filter(([, , check]) => check !== false) as Array<[string, readonly string[], NameCheck]>;
  if (checked.length === 0) return doc;
  test(`${page} names ${listed(checked.map(([kind]) => kind))}`, (t) => {
    for (const [kind, names, check] of checked) t.deepEqual(unnamedInDoc(doc, names, { quote: check.quote, grouped: check.grouped }), [], `the ${kind.replace('every ', '')}s ${page} does not name`);
  });
  return doc;
}
