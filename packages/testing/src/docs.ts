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
