/**
 * The Wiki app's records for the route-table guards: a space with two pages (one linking to the
 * other) and a comment on a page, so every wiki route has a record of each workspace to name.
 */

/** What the Wiki app seeds. */
export type WikiSeedKind = 'wiki_space' | 'wiki_page' | 'wiki_comment';

/** Path parameters of the app's routes, by first path segment (`/wiki/pages/{page_id}`). */
export const WIKI_PARAM_KINDS: Record<string, Record<string, WikiSeedKind>> = {
  wiki: { space_id: 'wiki_space', page_id: 'wiki_page', comment_id: 'wiki_comment' },
};

/** Body fields naming the app's records. */
export const WIKI_FIELD_KINDS: Record<string, WikiSeedKind> = { after_id: 'wiki_page', before_id: 'wiki_page' };

type Call = (method: string, url: string, body?: unknown) => Promise<any>;

/** Seeds Wiki: installs it and makes one of each record. */
export async function seedWiki(call: Call, marker: string): Promise<Record<WikiSeedKind, string>> {
  await call('POST', '/applications/wiki/installations', {});
  const space = (await call('POST', '/wiki/spaces', { name: `${marker} space` })).id as string;
  const target = (await call('POST', `/wiki/spaces/${space}/pages`, { title: `${marker} target` })).id as string;
  const page = (await call('POST', `/wiki/spaces/${space}/pages`, { title: `${marker} page`, markdown: `See [the target](page:${target}).\n` })).id as string;
  const comment = (await call('POST', `/wiki/pages/${page}/comments`, { body: `${marker} comment` })).id as string;
  return { wiki_space: space, wiki_page: page, wiki_comment: comment };
}
