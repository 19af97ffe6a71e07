import { formatMrn, memberMrn, type SearchDocument } from '@wpk/sdk';
import type { Channel, Comment, Post, Revision } from '../models/index.js';
import { plainText } from './html.js';
import type { PresentedPoll } from './polls.js';

/** The MRN other apps reference a post by: `mrn:feeds:post:{id}`. */
export function postMrn(postId: string): string {
  return formatMrn('feeds', 'post', postId);
}

/** How a channel looks in API answers. */
export function presentChannel(channel: Channel) {
  return {
    id: channel.id,
    name: channel.name,
    kind: channel.kind,
    department_mrn: channel.department_mrn,
    description: channel.description,
    post_policy: channel.post_policy,
    post_roles: channel.post_roles,
    created_by: channel.created_by,
    created_at: channel.created_at,
    updated_at: channel.updated_at,
  };
}

/** What a reader sees beside a post: reactions by emoji, comment count, own acknowledgement, the author's name. */
export interface PostExtras {
  author_name: string | null;
  reactions: Array<{ emoji: string; count: number; mine: boolean }>;
  comment_count: number;
  acknowledged: boolean;
  poll: PresentedPoll | null;
}

/** How a post looks in API answers (`pinned` while `pinned_until` lies ahead of `now`). */
export function presentPost(post: Post, extras: PostExtras, now: Date) {
  return {
    id: post.id,
    mrn: postMrn(post.id),
    channel_id: post.channel_id,
    author_id: post.author_id,
    author_name: extras.author_name,
    title: post.title,
    body: post.body,
    status: post.status,
    requires_acknowledgement: post.requires_acknowledgement,
    publish_at: post.publish_at,
    published_at: post.published_at,
    removed_reason: post.removed_reason,
    pinned: post.pinned_until !== null && post.pinned_until.getTime() > now.getTime(),
    pinned_until: post.pinned_until,
    revision: post.revision,
    reactions: extras.reactions,
    comment_count: extras.comment_count,
    acknowledged: extras.acknowledged,
    poll: extras.poll,
    created_at: post.created_at,
    updated_at: post.updated_at,
  };
}

/** How a revision looks in API answers. */
export function presentRevision(revision: Revision) {
  return { revision: revision.revision, title: revision.title, body: revision.body, edited_by: revision.edited_by, created_at: revision.created_at };
}

/** How a comment looks in API answers. */
export function presentComment(comment: Comment, authorName: string | null) {
  return { id: comment.id, post_id: comment.post_id, author_id: comment.author_id, author_name: authorName, body: comment.body, created_at: comment.created_at };
}

/** The search document of a post: only a published one is indexed (drafts stay their author's). */
export function postDocument(post: Post): SearchDocument | null {
  // A department channel's post is for its audience only: the index, which any member holding the key searches, leaves it out.
  if (post.status !== 'published' || post.department_id !== null) return null;
  const text = plainText(post.body);
  const title = post.title ?? (text.length > 80 ? `${text.slice(0, 79)}…` : text);
  return {
    type: 'post',
    id: post.id,
    title,
    subtitle: post.published_at ? post.published_at.toISOString().slice(0, 10) : '',
    url: `/feeds/posts/${post.id}`,
    names: [title],
    details: [text.slice(0, 2000), post.channel_id],
  };
}

/** The author of a post or comment as events name them. */
export const authorMrn = (memberId: string) => memberMrn(memberId);
