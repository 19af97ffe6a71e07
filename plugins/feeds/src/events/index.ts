import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { closeDue } from '../services/polls.js';
import { publishDue } from '../services/posts.js';

/** `core.feeds.post.scheduled` {post_id, publish_at}: the app's own wake-up at a scheduled post's instant. */
const onPostDue = subscription('core.feeds.post.scheduled', async (event, ctx) => {
  const published = await publishDue(ctx, event.payload.post_id, event.payload.publish_at);
  ctx.log.info({ action: event.action, post_id: event.payload.post_id, published }, 'feeds scheduled post');
});

/** `core.feeds.poll.expired` {post_id, poll_id, closes_at}: the app's own wake-up at a poll's closing time. */
const onPollDue = subscription('core.feeds.poll.expired', async (event, ctx) => {
  const closed = await closeDue(ctx, event.payload.poll_id, event.payload.closes_at);
  ctx.log.info({ action: event.action, post_id: event.payload.post_id, closed }, 'feeds poll closing time');
});

export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.feeds.post.scheduled': onPostDue,
  'core.feeds.poll.expired': onPollDue,
};
