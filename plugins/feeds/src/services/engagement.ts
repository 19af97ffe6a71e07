import { ConflictError, ForbiddenError, InvalidError, NotFoundError, formatMrn, memberMrn, Op, type DirectoryMember, type WhereOptions } from '@wpk/sdk';
import type { FeedsContext } from '../kit.js';
import type { Post } from '../models/index.js';
import { assertPublished, extrasOf, isAdmin, isModerator, posts, requireVisiblePost } from './posts.js';
import { cleanHtml } from './html.js';
import { stageMentions } from './mentions.js';
import { audienceMembers, hiddenChannels } from './audience.js';
import { postMrn } from './present.js';

const DAY_MS = 86_400_000;

/** One page of a post's comments, oldest first, with their authors' names. */
export async function listComments(ctx: FeedsContext, postId: string) {
  const post = await requireVisiblePost(ctx, postId);
  const page = ctx.page ?? { offset: 0, limit: 25 };
  const { rows, count } = await ctx.db.comments.findAndCountAll({ where: { post_id: post.id }, order: [['created_at', 'ASC'], ['id', 'ASC']], offset: page.offset, limit: page.limit });
  const authors = await ctx.members.getMany([...new Set(rows.map((comment) => comment.author_id))]);
  return { rows: rows.map((comment) => ({ comment, author: authors.get(comment.author_id)?.name ?? null })), count };
}

/** Comments on a published post; emits `comment.created`. */
export async function createComment(ctx: FeedsContext, postId: string, body: string) {
  const post = await requireVisiblePost(ctx, postId, true);
  assertPublished(post, 'comments');
  const comment = await ctx.db.comments.create({ post_id: post.id, author_id: ctx.member.id, body: cleanHtml(body, 'body') });
  ctx.events.stage('core.feeds.comment.created', { comment_id: comment.id, post_id: post.id, post_mrn: postMrn(post.id), post_author_mrn: memberMrn(post.author_id), author_mrn: ctx.member.mrn });
  await stageMentions(ctx, { html: comment.body, before: null, resourceMrn: formatMrn('feeds', 'comment', comment.id), link: `/feeds/posts/${post.id}`, authorId: ctx.member.id, audience: post.department_id ? await audienceMembers(ctx, post.department_id) : null });
  return comment;
}

/** Deletes a comment: its author, or a moderator. */
export async function deleteComment(ctx: FeedsContext, commentId: string) {
  const comment = await ctx.db.comments.findById(commentId, { lock: 'update' });
  if (!comment) throw new NotFoundError(`Comment ${commentId} not found`);
  if (comment.author_id !== ctx.member.id && !isModerator(ctx)) throw new ForbiddenError(`Only its author or a moderator may delete comment ${comment.id}`);
  await ctx.db.comments.destroy({ where: { id: comment.id } });
  return { id: comment.id, deleted: true };
}

/** One emoji, or a short code such as `thumbs_up`; 400 naming it otherwise. */
export function emojiOf(value: string): string {
  if (/^[a-z0-9_+-]{1,32}$/.test(value) || /^(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\u200d|\ufe0f){1,16}$/u.test(value)) return value;
  throw new InvalidError(`emoji: ${value} is neither an emoji nor a short code (a-z, 0-9, _, + and -, up to 32)`, { field: 'emoji' });
}

/** Adds (`on`) or takes back the caller's reaction with `emoji`; either twice changes nothing. Answers the post's reactions. */
export async function react(ctx: FeedsContext, postId: string, emoji: string, on: boolean) {
  const value = emojiOf(emoji);
  const post = await requireVisiblePost(ctx, postId, true);
  assertPublished(post, 'reactions');
  const mine = { post_id: post.id, member_id: ctx.member.id, emoji: value };
  const existing = await ctx.db.reactions.findOne({ where: mine });
  if (on && !existing) await ctx.db.reactions.create(mine);
  if (!on && existing) await ctx.db.reactions.destroy({ where: { id: existing.id } });
  return { post_id: post.id, reactions: (await extrasOf(ctx, [post])).get(post.id)!.reactions };
}

/** The caller acknowledges an announcement; the first time emits `announcement.acknowledged`, a second changes nothing. */
export async function acknowledge(ctx: FeedsContext, postId: string) {
  const post = await requireVisiblePost(ctx, postId, true);
  assertPublished(post, 'acknowledgements');
  if (!post.requires_acknowledgement) throw new ConflictError(`Post ${post.id} does not ask for acknowledgement`);
  let ack = await ctx.db.acknowledgements.findOne({ where: { post_id: post.id, member_id: ctx.member.id } });
  if (!ack) {
    ack = await ctx.db.acknowledgements.create({ post_id: post.id, member_id: ctx.member.id });
    ctx.events.stage('core.feeds.announcement.acknowledged', { post_id: post.id, mrn: postMrn(post.id), member_mrn: ctx.member.mrn });
  }
  return { post_id: post.id, member_id: ctx.member.id, acknowledged_at: ack.created_at };
}

/** Every active member of the workspace, from the members directory, by name. */
async function everyMember(ctx: FeedsContext): Promise<DirectoryMember[]> {
  const all: DirectoryMember[] = [];
  for (let offset = 0; ; offset += 200) {
    const { rows, count } = await ctx.members.list({ offset, limit: 200 });
    all.push(...rows);
    if (rows.length === 0 || all.length >= count) return all;
  }
}

/** Who acknowledged an announcement and who has not yet (active members), for its author and the workspace's admins. */
export async function acknowledgements(ctx: FeedsContext, postId: string) {
  const post = await requireVisiblePost(ctx, postId);
  if (post.author_id !== ctx.member.id && !isAdmin(ctx)) throw new ForbiddenError(`Only the author of post ${post.id} and admins see who acknowledged it`);
  if (!post.requires_acknowledgement) throw new ConflictError(`Post ${post.id} does not ask for acknowledgement`);
  const acks = await ctx.db.acknowledgements.findAll({ where: { post_id: post.id }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  // A department post is for its audience: only they can be pending.
  const audience = post.department_id ? await audienceMembers(ctx, post.department_id) : null;
  const members = (await everyMember(ctx)).filter((member) => !audience || audience.has(member.id));
  const known = await ctx.members.getMany(acks.map((ack) => ack.member_id));
  const done = new Set(acks.map((ack) => ack.member_id));
  return {
    post_id: post.id,
    acknowledged: acks.map((ack) => ({ member_id: ack.member_id, name: known.get(ack.member_id)?.name ?? null, acknowledged_at: ack.created_at })),
    pending: members.filter((member) => !done.has(member.id)).map((member) => ({ member_id: member.id, name: member.name })),
  };
}

/** Pins a published post until `until` (default: the `default_pin_days` setting from now). */
export async function pin(ctx: FeedsContext, postId: string, until: string | undefined): Promise<Post> {
  const post = await requireVisiblePost(ctx, postId, true);
  assertPublished(post, 'a pin');
  const now = ctx.now();
  const end = until ? new Date(until) : new Date(now.getTime() + (ctx.settings.default_pin_days ?? 7) * DAY_MS);
  if (end.getTime() <= now.getTime()) throw new InvalidError(`until: ${end.toISOString()} is not in the future`, { field: 'until' });
  return (await posts.patch(ctx, post, { pinned_until: end })).row;
}

/** Takes a post's pin off (a post without one stays as it is). */
export async function unpin(ctx: FeedsContext, postId: string): Promise<Post> {
  const post = await requireVisiblePost(ctx, postId, true);
  return (await posts.patch(ctx, post, { pinned_until: null })).row;
}

/** A timeline cursor: the last post's `published_at` and id. */
function decodeCursor(cursor: string): { at: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const instant = new Date(at ?? '');
  if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(instant.getTime())) throw new InvalidError('after: not a cursor this timeline gave', { field: 'after' });
  return { at: instant, id };
}

const encodeCursor = (post: Post) => Buffer.from(`${post.published_at!.toISOString()}|${post.id}`).toString('base64url');

/**
 * The caller's timeline: published posts of every channel (all channels are open to every
 * member), newest first by `published_at`, in keyset pages of `limit`. The first page starts with
 * the posts pinned now; later pages (`after` = the previous `next_cursor`) hold the others.
 */
export async function timeline(ctx: FeedsContext, options: { after?: string; limit: number; channel_id?: string }) {
  const now = ctx.now();
  const base: Array<WhereOptions<Post>> = [{ status: 'published' }];
  if (options.channel_id) base.push({ channel_id: options.channel_id });
  const hidden = await hiddenChannels(ctx);
  if (hidden.length) base.push({ channel_id: { [Op.notIn]: hidden } });
  const unpinned = { [Op.or]: [{ pinned_until: null }, { pinned_until: { [Op.lte]: now } }] };
  const pinned = options.after ? [] : await ctx.db.posts.findAll({ where: { [Op.and]: [...base, { pinned_until: { [Op.gt]: now } }] } as WhereOptions<Post>, order: [['published_at', 'DESC'], ['id', 'DESC']] });
  const conditions: Array<WhereOptions<Post>> = [...base, unpinned as WhereOptions<Post>];
  if (options.after) {
    const { at, id } = decodeCursor(options.after);
    conditions.push({ [Op.or]: [{ published_at: { [Op.lt]: at } }, { published_at: at, id: { [Op.lt]: id } }] } as WhereOptions<Post>);
  }
  const rows = await ctx.db.posts.findAll({ where: { [Op.and]: conditions } as WhereOptions<Post>, order: [['published_at', 'DESC'], ['id', 'DESC']], limit: options.limit + 1 });
  const more = rows.length > options.limit;
  const page = rows.slice(0, options.limit);
  return { pinned, rows: page, next_cursor: more ? encodeCursor(page[page.length - 1]) : null };
}
