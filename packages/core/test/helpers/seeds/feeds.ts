/**
 * The Feeds app's records for the route-table guards: a channel, a published post in it (with a
 * poll), a comment on the post and a binding of a catalog action to the channel, so every feeds route has a record of each workspace to name.
 */

/** What the Feeds app seeds. */
export type FeedsSeedKind = 'feeds_channel' | 'feeds_post' | 'feeds_comment' | 'feeds_binding';

/** Path parameters of the app's routes, by first path segment (`/feeds/posts/{post_id}`). */
export const FEEDS_PARAM_KINDS: Record<string, Record<string, FeedsSeedKind>> = {
  feeds: { channel_id: 'feeds_channel', post_id: 'feeds_post', comment_id: 'feeds_comment', binding_id: 'feeds_binding' },
};

type Call = (method: string, url: string, body?: unknown) => Promise<any>;

export async function seedFeeds(call: Call, marker: string): Promise<Record<FeedsSeedKind, string>> {
  await call('POST', '/applications/feeds/installations', {});
  const channel = (await call('POST', '/feeds/channels', { name: `${marker} channel`, kind: 'topic' })).id as string;
  const post = (await call('POST', `/feeds/channels/${channel}/posts`, { title: `${marker} post`, body: `<p>${marker} news</p>`, requires_acknowledgement: true, poll: { options: ['Yes', 'No'], closes_at: '2099-01-01T00:00:00Z' } })).id as string;
  const comment = (await call('POST', `/feeds/posts/${post}/comments`, { body: `${marker} comment` })).id as string;
  const binding = (await call('POST', '/feeds/bindings', { action: 'core.workers.worker.hired', channel_id: channel, fields: ['name'], template: 'Welcome {name}' })).id as string;
  return { feeds_channel: channel, feeds_post: post, feeds_comment: comment, feeds_binding: binding };
}
