import { ConflictError, defineStateMachine, ForbiddenError, InvalidError, memberMrn, NotFoundError, Op, type WhereOptions } from '@wpk/sdk';
import { resource, type FeedsBaseContext, type FeedsContext } from '../kit.js';
import type { Channel, Post, PostStatus } from '../models/index.js';
import { audienceDepartment, audienceMembers, hiddenChannels } from './audience.js';
import { assertMayPost, requireVisibleChannel } from './channels.js';
import { cleanHtml } from './html.js';
import { stageMentions } from './mentions.js';
import { assertPollOpen, presentPoll, setPoll, vote, withdrawPoll, type PollInput } from './polls.js';
import { postDocument, postMrn, presentPost, type PostExtras } from './present.js';

/**
 * A post's life: written as a draft, scheduled for `publish_at` (it publishes itself then) or
 * published at once, archived by its author; a moderator removes a published or archived one
 * with a reason. Only `publish` and `remove` tell other apps.
 */
export const postMachine = defineStateMachine({
  name: 'post',
  states: ['draft', 'scheduled', 'published', 'archived', 'removed'] as const,
  initial: 'draft',
  moves: {
    schedule: { from: ['draft'], to: 'scheduled' },
    unschedule: { from: ['scheduled'], to: 'draft' },
    publish: { from: ['draft', 'scheduled'], to: 'published', event: 'core.feeds.post.published' },
    archive: { from: ['published'], to: 'archived' },
    remove: { from: ['published', 'archived'], to: 'removed', event: 'core.feeds.post.removed' },
  },
});

/** Posts: reads, the search index (published posts only) and the row writes. */
export const posts = resource({
  model: 'posts',
  label: 'Post',
  order: [['created_at', 'DESC'], ['id', 'DESC']],
  searchColumns: ['title', 'body'],
  search: { type: 'post', document: postDocument },
});

/** What a create or an update may set. */
export interface PostInput {
  title?: string | null;
  body?: string;
  requires_acknowledgement?: boolean;
  status?: PostStatus;
  /** An ISO 8601 instant (validated by the route). */
  publish_at?: string | null;
  /** A poll (before publication only), or null to take it off. */
  poll?: PollInput | null;
}

/** True when the calling member holds the moderator's key. */
export const isModerator = (ctx: FeedsContext) => ctx.permissions.has('feeds.posts.remove');

/** True for a workspace owner or admin. */
export const isAdmin = (ctx: FeedsContext) => ctx.member.platform_role === 'owner' || ctx.member.platform_role === 'admin';

/** Who sees a post (in a channel they read): everyone a published or archived one, only its author a draft or scheduled one, its author and moderators a removed one. */
function visible(ctx: FeedsContext, post: Post): boolean {
  if (post.status === 'published' || post.status === 'archived') return true;
  if (post.author_id === ctx.member.id) return true;
  return post.status === 'removed' && isModerator(ctx);
}

/** The conditions of the posts the caller sees (never in a department channel they are not in). */
async function visibleWhere(ctx: FeedsContext): Promise<WhereOptions<Post>> {
  const own = { author_id: ctx.member.id };
  const alternatives: Array<WhereOptions<Post>> = [{ status: { [Op.in]: ['published', 'archived'] } }, own];
  if (isModerator(ctx)) alternatives.push({ status: 'removed' });
  const hidden = await hiddenChannels(ctx);
  return { [Op.and]: [{ [Op.or]: alternatives }, ...(hidden.length ? [{ channel_id: { [Op.notIn]: hidden } }] : [])] } as WhereOptions<Post>;
}

/** The post with this id if the caller may see it; 404 otherwise (a draft of someone else is not there for them). */
export async function requireVisiblePost(ctx: FeedsContext, postId: string, lock = false) {
  const post = await posts.require(ctx, postId, lock ? { lock: 'update' } : {});
  if (!visible(ctx, post) || (await hiddenChannels(ctx)).includes(post.channel_id)) throw new NotFoundError(`Post ${postId} not found`);
  return post;
}

/** 409 unless the post is published (comments, reactions, acknowledgements and pins are for published posts). */
export function assertPublished(post: Post, what: string): void {
  if (post.status !== 'published') throw new ConflictError(`Post ${post.id} is ${post.status}; only a published post takes ${what}`);
}

/** Reactions, comment counts, own acknowledgements and author names of several posts, in a few reads. */
export async function extrasOf(ctx: FeedsContext, rows: Post[]): Promise<Map<string, PostExtras>> {
  const ids = rows.map((post) => post.id);
  const extras = new Map<string, PostExtras>();
  if (ids.length === 0) return extras;
  const [reactions, comments, acks, authors, polls] = await Promise.all([
    ctx.db.reactions.findAll({ where: { post_id: { [Op.in]: ids } }, order: [['created_at', 'ASC'], ['id', 'ASC']] }),
    ctx.db.comments.findAll({ where: { post_id: { [Op.in]: ids } }, attributes: ['post_id'] }),
    ctx.db.acknowledgements.findAll({ where: { post_id: { [Op.in]: ids }, member_id: ctx.member.id } }),
    ctx.members.getMany([...new Set(rows.map((post) => post.author_id))]),
    ctx.db.polls.findAll({ where: { post_id: { [Op.in]: ids } } }),
  ]);
  const myVotes = polls.length === 0 ? [] : await ctx.db.votes.findAll({ where: { poll_id: { [Op.in]: polls.map((poll) => poll.id) }, member_id: ctx.member.id } });
  const now = ctx.now();
  for (const post of rows) extras.set(post.id, { author_name: authors.get(post.author_id)?.name ?? null, reactions: [], comment_count: 0, acknowledged: false, poll: null });
  for (const poll of polls) extras.get(poll.post_id)!.poll = presentPoll(poll, myVotes.find((vote) => vote.poll_id === poll.id)?.option ?? null, now);
  for (const reaction of reactions) {
    const summary = extras.get(reaction.post_id)!.reactions;
    let entry = summary.find((item) => item.emoji === reaction.emoji);
    if (!entry) summary.push((entry = { emoji: reaction.emoji, count: 0, mine: false }));
    entry.count += 1;
    if (reaction.member_id === ctx.member.id) entry.mine = true;
  }
  for (const comment of comments) extras.get(comment.post_id)!.comment_count += 1;
  for (const ack of acks) extras.get(ack.post_id)!.acknowledged = true;
  return extras;
}

/** Several posts as API answers present them. */
export async function presentPosts(ctx: FeedsContext, rows: Post[]) {
  const extras = await extrasOf(ctx, rows);
  const now = ctx.now();
  return rows.map((post) => presentPost(post, extras.get(post.id)!, now));
}

/** One post as API answers present it. */
export async function presentOne(ctx: FeedsContext, post: Post) {
  return (await presentPosts(ctx, [post]))[0];
}

/** The dedupe key of a post's wake-up at `publishAt`. */
const dueKey = (post: Post, publishAt: Date) => `feeds-post-due:${post.id}:${publishAt.toISOString()}`;

/** Stages the post's wake-up for its `publish_at`. */
function stageDue(ctx: FeedsBaseContext, post: Post, publishAt: Date): void {
  ctx.events.stage('core.feeds.post.scheduled', { post_id: post.id, publish_at: publishAt.toISOString() }, {}, { deliverAt: publishAt, dedupeKey: dueKey(post, publishAt) });
}

/** Tells the members a published post mentions (those not in `before`, the text readers saw until now). */
const stagePostMentions = async (ctx: FeedsBaseContext, post: Post, before: string | null) =>
  stageMentions(ctx, { html: post.body, before, resourceMrn: postMrn(post.id), link: `/feeds/posts/${post.id}`, authorId: post.author_id, audience: post.department_id ? await audienceMembers(ctx, post.department_id) : null });

/** Stages `post.published` for a post that just published, and its mentions. */
export async function stagePublished(ctx: FeedsBaseContext, post: Post): Promise<void> {
  await stagePostMentions(ctx, post, null);
  const channel = await ctx.db.channels.findById(post.channel_id);
  ctx.events.stage('core.feeds.post.published', {
    post_id: post.id,
    mrn: postMrn(post.id),
    channel_id: post.channel_id,
    channel_name: channel?.name ?? 'unknown',
    author_mrn: memberMrn(post.author_id),
    ...(post.title ? { title: post.title } : {}),
    requires_acknowledgement: post.requires_acknowledgement,
    published_at: post.published_at!.toISOString(),
  });
}

/** A `publish_at` that lies ahead of now, or 400 naming it. */
function futureInstant(ctx: FeedsContext, value: string | Date | null | undefined): Date {
  if (!value) throw new InvalidError('publish_at: a scheduled post needs publish_at, the instant it publishes itself', { field: 'publish_at' });
  const publishAt = new Date(value);
  if (publishAt.getTime() <= ctx.now().getTime()) throw new InvalidError(`publish_at: ${publishAt.toISOString()} is not in the future`, { field: 'publish_at' });
  return publishAt;
}

/** One page of a channel's posts the caller sees, newest first. */
export async function listChannelPosts(ctx: FeedsContext, channelId: string, status?: PostStatus) {
  const channel = await requireVisibleChannel(ctx, channelId);
  const where = { [Op.and]: [{ channel_id: channel.id }, await visibleWhere(ctx), ...(status ? [{ status }] : [])] } as WhereOptions<Post>;
  return posts.list(ctx, { where });
}

/** Writes a post in a channel: published at once (the default), a draft, or scheduled for `publish_at`. */
export async function createPost(ctx: FeedsContext, channelId: string, input: PostInput & { body: string }): Promise<Post> {
  const channel = await requireVisibleChannel(ctx, channelId);
  assertMayPost(ctx, channel);
  const status = input.status ?? 'published';
  if (status !== 'draft' && status !== 'scheduled' && status !== 'published') throw new InvalidError(`status: a new post is a draft, scheduled or published, not ${status}`, { field: 'status' });
  if (status !== 'scheduled' && input.publish_at) throw new InvalidError('publish_at: only a scheduled post has publish_at', { field: 'publish_at' });
  const publishAt = status === 'scheduled' ? futureInstant(ctx, input.publish_at) : null;
  const title = input.title?.trim() || null;
  const body = cleanHtml(input.body, 'body');
  const post = await posts.create(ctx, {
    channel_id: channel.id,
    author_id: ctx.member.id,
    title,
    body,
    status,
    requires_acknowledgement: input.requires_acknowledgement ?? false,
    publish_at: publishAt,
    published_at: status === 'published' ? ctx.now() : null,
    revision: 1,
    department_id: audienceDepartment(channel),
  });
  await ctx.db.revisions.create({ post_id: post.id, revision: 1, title, body, edited_by: ctx.member.id });
  if (input.poll) await setPoll(ctx, post, input.poll, publishAt);
  if (status === 'published') await stagePublished(ctx, post);
  if (publishAt) stageDue(ctx, post, publishAt);
  return post;
}

/**
 * Changes a post (its author only): a new title or body makes a new revision; `status` moves it
 * by the state machine (draft ↔ scheduled, → published, published → archived); a scheduled
 * post's `publish_at` may move, which replaces its pending wake-up.
 */
export async function updatePost(ctx: FeedsContext, postId: string, input: PostInput): Promise<Post> {
  const post = await requireVisiblePost(ctx, postId, true);
  if (post.author_id !== ctx.member.id) throw new ForbiddenError(`Only the author may change post ${post.id}`);
  if (input.status === 'removed') throw new InvalidError('status: a post is removed with DELETE /feeds/posts/{post_id} and a reason, by a moderator', { field: 'status' });
  if (post.status === 'removed' || post.status === 'archived') throw new ConflictError(`Post ${post.id} is ${post.status} and can no longer change`);
  const transition = input.status && input.status !== post.status ? postMachine.moveTo(post.status, input.status) : null;
  const status = transition?.to ?? post.status;
  if (input.publish_at && status !== 'scheduled') throw new InvalidError('publish_at: only a scheduled post has publish_at', { field: 'publish_at' });
  const changes: Partial<Post> = {};
  if (status === 'scheduled') {
    const publishAt = input.publish_at !== undefined || post.status !== 'scheduled' ? futureInstant(ctx, input.publish_at ?? post.publish_at) : post.publish_at!;
    if (post.status === 'scheduled' && post.publish_at!.getTime() !== publishAt.getTime()) ctx.events.withdraw('core.feeds.post.scheduled', dueKey(post, post.publish_at!));
    if (post.status !== 'scheduled' || post.publish_at!.getTime() !== publishAt.getTime()) stageDue(ctx, post, publishAt);
    changes.publish_at = publishAt;
  } else {
    if (post.status === 'scheduled') ctx.events.withdraw('core.feeds.post.scheduled', dueKey(post, post.publish_at!));
    changes.publish_at = null;
  }
  if (transition?.move === 'publish' || transition?.move === 'schedule') assertMayPost(ctx, (await requireVisibleChannel(ctx, post.channel_id)) as Channel);
  if (input.poll !== undefined) {
    if (post.status === 'published') throw new ConflictError(`Post ${post.id} is published; its poll no longer changes`);
    await setPoll(ctx, post, input.poll, status === 'scheduled' ? changes.publish_at! : null);
  } else if (transition?.move === 'publish' || (status === 'scheduled' && changes.publish_at?.getTime() !== post.publish_at?.getTime())) {
    await assertPollOpen(ctx, post, status === 'scheduled' ? changes.publish_at! : null);
  }
  if (transition?.move === 'publish') changes.published_at = ctx.now();
  if (transition) changes.status = status;
  if (input.requires_acknowledgement !== undefined) {
    if (post.status === 'published' && input.requires_acknowledgement !== post.requires_acknowledgement) throw new ConflictError(`Post ${post.id} is published; whether it needs acknowledgement no longer changes`);
    changes.requires_acknowledgement = input.requires_acknowledgement;
  }
  const title = input.title === undefined ? post.title : input.title?.trim() || null;
  const body = input.body === undefined ? post.body : cleanHtml(input.body, 'body');
  if (title !== post.title || body !== post.body) {
    Object.assign(changes, { title, body, revision: post.revision + 1 });
    await ctx.db.revisions.create({ post_id: post.id, revision: post.revision + 1, title, body, edited_by: ctx.member.id });
  }
  const { row } = await posts.patch(ctx, post, changes);
  if (transition?.move === 'publish') await stagePublished(ctx, row);
  else if (row.status === 'published' && row.body !== post.body) await stagePostMentions(ctx, row, post.body);
  return row;
}

/**
 * DELETE of a post: its author deletes an unpublished one (draft or scheduled) for good; a
 * moderator removes a published or archived one with a reason (it stays, `removed`, for its
 * author and moderators to see, and `post.removed` tells other apps).
 */
export async function deletePost(ctx: FeedsContext, postId: string, reason: string | undefined) {
  const post = await requireVisiblePost(ctx, postId, true);
  if (post.status === 'draft' || post.status === 'scheduled') {
    if (post.author_id !== ctx.member.id) throw new ForbiddenError(`Only the author may delete post ${post.id}`);
    if (post.status === 'scheduled') ctx.events.withdraw('core.feeds.post.scheduled', dueKey(post, post.publish_at!));
    await withdrawPoll(ctx, post);
    await posts.remove(ctx, post);
    return { id: post.id, deleted: true, status: null };
  }
  if (!isModerator(ctx)) throw new ForbiddenError(`Post ${post.id} is ${post.status}: only a moderator (feeds.posts.remove) removes it`);
  const move = postMachine.move(post.status, 'remove');
  if (!reason) throw new InvalidError('reason: a moderator removing a post gives the reason its author sees', { field: 'reason' });
  const { row } = await posts.patch(ctx, post, { status: move.to, removed_reason: reason, removed_by: ctx.member.id, pinned_until: null });
  ctx.events.stage('core.feeds.post.removed', { post_id: row.id, mrn: postMrn(row.id), channel_id: row.channel_id, author_mrn: memberMrn(row.author_id), reason, removed_by: ctx.member.mrn });
  return { id: row.id, deleted: false, status: row.status };
}

/** One page of the revisions of a post the caller sees, oldest first. */
export async function listRevisions(ctx: FeedsContext, postId: string) {
  const post = await requireVisiblePost(ctx, postId);
  const page = ctx.page ?? { offset: 0, limit: 25 };
  return ctx.db.revisions.findAndCountAll({ where: { post_id: post.id }, order: [['revision', 'ASC']], offset: page.offset, limit: page.limit });
}

/**
 * `core.feeds.post.scheduled` {post_id, publish_at}: a scheduled post's instant came. It publishes
 * unless it is gone, no longer scheduled, or scheduled for another instant since (that
 * instant has its own wake-up). Returns whether it published.
 */
export async function publishDue(ctx: FeedsBaseContext, postId: string, publishAt: string): Promise<boolean> {
  const post = await ctx.db.posts.findById(postId, { lock: 'update' });
  if (!post || post.status !== 'scheduled' || post.publish_at?.toISOString() !== publishAt) return false;
  const { row } = await posts.patch(ctx, post, { status: postMachine.move(post.status, 'publish').to, published_at: ctx.now() });
  await stagePublished(ctx, row);
  return true;
}

/** `PUT /feeds/posts/{post_id}/vote`: the caller's vote in a visible post's poll. */
export async function voteOn(ctx: FeedsContext, postId: string, option: number) {
  const post = await requireVisiblePost(ctx, postId, true);
  return { post_id: post.id, ...(await vote(ctx, post, option)) };
}
