/**
 * The Papers app's records for the route-table guards: a folder, a paper in it (its text carrying
 * the marker), a named version, a comment thread, an anonymous link (its token names the public page), an image (a 1×1 PNG) and an open suggestion (a fixed Yjs update
 * adding a paragraph, made once with yjs: the core's tests do not depend on it), so every papers route has a record
 * of each workspace to name.
 */

/** What the Papers app seeds. */
export type PapersSeedKind = 'papers_folder' | 'papers_paper' | 'papers_version' | 'papers_comment' | 'papers_link' | 'papers_suggestion' | 'papers_image' | 'papers_link_token';

/** Path parameters of the app's routes, by first path segment (`/papers/{paper_id}`). */
export const PAPERS_PARAM_KINDS: Record<string, Record<string, PapersSeedKind>> = {
  papers: { folder_id: 'papers_folder', paper_id: 'papers_paper', version_id: 'papers_version', comment_id: 'papers_comment', link_id: 'papers_link', token: 'papers_link_token', suggestion_id: 'papers_suggestion', image_id: 'papers_image' },
};

/** Body fields naming the app's records. */
export const PAPERS_FIELD_KINDS: Record<string, PapersSeedKind> = { thread_id: 'papers_comment' };

type Call = (method: string, url: string, body?: unknown) => Promise<any>;

/** Seeds Papers: installs it and makes one of each record, every name carrying the marker. */
export async function seedPapers(call: Call, marker: string): Promise<Record<PapersSeedKind, string>> {
  await call('POST', '/applications/papers/installations', {});
  const folder = (await call('POST', '/papers/folders', { name: `${marker} folder` })).id as string;
  const paper = (await call('POST', '/papers', { title: `${marker} paper`, folder_id: folder, content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: `${marker} text` }] }] } })).id as string;
  const version = (await call('POST', `/papers/${paper}/versions`, { name: `${marker} version` })).id as string;
  const comment = (await call('POST', `/papers/${paper}/comments`, { body: `${marker} comment` })).id as string;
  const made = await call('POST', `/papers/${paper}/links`, { level: 'view', anonymous: true });
  const link = made.id as string;
  const image = (await call('POST', `/papers/${paper}/images`, { data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' })).id as string;
  const update = 'AQOHrUsABwEHZGVmYXVsdAMJcGFyYWdyYXBoBwCHrUsABgQAh61LARFzZWVkZWQgc3VnZ2VzdGlvbgA=';
  const suggestion = (await call('POST', `/papers/${paper}/suggestions`, { update, note: `${marker} suggestion` })).id as string;
  return { papers_folder: folder, papers_paper: paper, papers_version: version, papers_comment: comment, papers_link: link, papers_suggestion: suggestion, papers_image: image, papers_link_token: made.token as string };
}
