/**
 * Checks of an app's docs page (`docs/apps/{slug}.md`) against its manifest: every route of the
 * authorization table has its `### METHOD /path` section, and nothing else is documented as one.
 */

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
