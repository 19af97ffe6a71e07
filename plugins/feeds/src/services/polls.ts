import { ConflictError, formatMrn, InvalidError, NotFoundError } from '@wpk/sdk';
import type { FeedsBaseContext, FeedsContext } from '../kit.js';
import type { Poll, Post } from '../models/index.js';

/** What a post's `poll` field gives: 2-20 distinct options, the instant it closes, whether results wait for it. */
export interface PollInput {
  options: string[];
  /** An ISO 8601 instant (validated by the route). */
  closes_at: string;
  hide_results?: boolean;
}

/** How a poll looks in a post: counts are null while they are hidden (an open poll with hide_results). */
export interface PresentedPoll {
  options: Array<{ index: number; label: string; votes: number | null }>;
  total_votes: number | null;
  closes_at: Date;
  closed: boolean;
  hide_results: boolean;
  my_vote: number | null;
}

/** A poll is closed once its close was recorded, or its closing time has passed (its wake-up may still be on its way). */
export const isClosed = (poll: Poll, now: Date) => poll.closed_at !== null || poll.closes_at.getTime() <= now.getTime();

/** A poll as readers see it, with the caller's own vote. */
export function presentPoll(poll: Poll, myVote: number | null, now: Date): PresentedPoll {
  const closed = isClosed(poll, now);
  const shown = closed || !poll.hide_results;
  return {
    options: poll.options.map((label, index) => ({ index, label, votes: shown ? (poll.counts[index] ?? 0) : null })),
    total_votes: shown ? poll.counts.reduce((sum, count) => sum + count, 0) : null,
    closes_at: poll.closes_at,
    closed,
    hide_results: poll.hide_results,
    my_vote: myVote,
  };
}

/** The dedupe key of a poll's wake-up at `closesAt`. */
const dueKey = (poll: Poll) => `feeds-poll-due:${poll.id}:${poll.closes_at.toISOString()}`;

/** The options as given, trimmed; 400 naming an option listed twice (ignoring case). */
function options(input: PollInput): string[] {
  const labels = input.options.map((label) => label.trim());
  const seen = new Set<string>();
  for (const label of labels) {
    if (seen.has(label.toLowerCase())) throw new InvalidError(`poll.options: "${label}" is listed twice`, { field: 'poll.options' });
    seen.add(label.toLowerCase());
  }
  return labels;
}

/** 400 unless the poll closes after now and after the post's own publication (a scheduled post's publish_at). */
function checkClosesAt(ctx: FeedsContext, closesAt: Date, publishAt: Date | null): void {
  if (closesAt.getTime() <= ctx.now().getTime()) throw new InvalidError(`poll.closes_at: ${closesAt.toISOString()} is not in the future`, { field: 'poll.closes_at' });
  if (publishAt && closesAt.getTime() <= publishAt.getTime()) throw new InvalidError(`poll.closes_at: ${closesAt.toISOString()} is not after the post's publish_at ${publishAt.toISOString()}`, { field: 'poll.closes_at' });
}

/** The poll of a post, or null. */
export const pollOf = (ctx: FeedsBaseContext, postId: string, lock = false) => ctx.db.polls.findOne({ where: { post_id: postId }, ...(lock ? { lock: 'update' as const } : {}) });

/** Gives an unpublished post a poll (replacing any), or takes it off (`input` null); its wake-up follows. */
export async function setPoll(ctx: FeedsContext, post: Post, input: PollInput | null, publishAt: Date | null): Promise<void> {
  const existing = await pollOf(ctx, post.id, true);
  if (existing) {
    ctx.events.withdraw('core.feeds.poll.expired', dueKey(existing));
    await ctx.db.polls.destroy({ where: { id: existing.id } });
  }
  if (!input) return;
  const labels = options(input);
  const closesAt = new Date(input.closes_at);
  checkClosesAt(ctx, closesAt, publishAt);
  const poll = await ctx.db.polls.create({ post_id: post.id, options: labels, counts: labels.map(() => 0), closes_at: closesAt, hide_results: input.hide_results ?? false, closed_at: null });
  ctx.events.stage('core.feeds.poll.expired', { post_id: post.id, poll_id: poll.id, closes_at: closesAt.toISOString() }, {}, { deliverAt: closesAt, dedupeKey: dueKey(poll) });
}

/** 409 when a post about to publish carries a poll whose closing time has passed. */
export async function assertPollOpen(ctx: FeedsContext, post: Post, publishAt: Date | null): Promise<void> {
  const poll = await pollOf(ctx, post.id);
  if (!poll) return;
  const from = publishAt ?? ctx.now();
  if (poll.closes_at.getTime() <= from.getTime()) throw new ConflictError(`The poll of post ${post.id} closes at ${poll.closes_at.toISOString()}, before the post would publish; move poll.closes_at first`);
}

/** Takes a deleted draft's poll wake-up back. */
export async function withdrawPoll(ctx: FeedsContext, post: Post): Promise<void> {
  const poll = await pollOf(ctx, post.id);
  if (poll) ctx.events.withdraw('core.feeds.poll.expired', dueKey(poll));
}

/**
 * The caller votes for option `option` (an index) of a published post's open poll, or moves their
 * vote there; the same vote again changes nothing. Answers the poll.
 */
export async function vote(ctx: FeedsContext, post: Post, option: number): Promise<PresentedPoll> {
  const poll = await pollOf(ctx, post.id, true);
  if (!poll) throw new NotFoundError(`Post ${post.id} has no poll`);
  const now = ctx.now();
  if (post.status !== 'published') throw new ConflictError(`Post ${post.id} is ${post.status}; only a published post's poll takes votes`);
  if (isClosed(poll, now)) throw new ConflictError(`The poll of post ${post.id} closed at ${(poll.closed_at ?? poll.closes_at).toISOString()}`);
  if (option >= poll.options.length) throw new InvalidError(`option: ${option} is not an option of this poll (0 to ${poll.options.length - 1})`, { field: 'option' });
  const counts = [...poll.counts];
  const mine = await ctx.db.votes.findOne({ where: { poll_id: poll.id, member_id: ctx.member.id } });
  if (mine?.option === option) return presentPoll(poll, option, now);
  if (mine) {
    counts[mine.option] -= 1;
    await ctx.db.votes.update({ option }, { where: { id: mine.id } });
  } else await ctx.db.votes.create({ poll_id: poll.id, member_id: ctx.member.id, option });
  counts[option] += 1;
  await ctx.db.polls.update({ counts }, { where: { id: poll.id } });
  return presentPoll({ ...poll, counts }, option, now);
}

/**
 * `core.feeds.poll.expired` {post_id, poll_id, closes_at}: a poll's closing time came. It closes
 * unless it is gone, closed, or closes at another instant since; a published (or since archived)
 * post's poll tells its results once with `poll.closed`. Returns whether it closed.
 */
export async function closeDue(ctx: FeedsBaseContext, pollId: string, closesAt: string): Promise<boolean> {
  const poll = await ctx.db.polls.findById(pollId, { lock: 'update' });
  if (!poll || poll.closed_at !== null || poll.closes_at.toISOString() !== closesAt) return false;
  // It closed at its closing time, whenever the wake-up came.
  const closedAt = poll.closes_at;
  await ctx.db.polls.update({ closed_at: closedAt }, { where: { id: poll.id } });
  const post = await ctx.db.posts.findById(poll.post_id);
  if (post && (post.status === 'published' || post.status === 'archived')) {
    ctx.events.stage('core.feeds.poll.closed', {
      post_id: post.id,
      mrn: formatMrn('feeds', 'post', post.id),
      channel_id: post.channel_id,
      ...(post.title ? { title: post.title } : {}),
      options: poll.options.map((label, index) => ({ label, votes: poll.counts[index] ?? 0 })),
      total_votes: poll.counts.reduce((sum, count) => sum + count, 0),
      closed_at: closedAt.toISOString(),
    });
  }
  return true;
}
