import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { makeCards } from '../services/bindings.js';
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

/** A bindable catalog action: a card in each channel bound to it, once per event id. */
const card = (action: 'core.workers.worker.hired' | 'core.ats.application.hired' | 'core.growth.praise.given' | 'core.growth.goal.completed') =>
  subscription(action, async (event, ctx) => {
    // The delivery's id: the same on every retry of this event to this app.
    const eventId = event.deliveryId || String(event.metadata.event_id ?? '');
    if (!eventId) {
      ctx.log.warn({ action }, 'delivery without an event id: no card (cards are made once per event id)');
      return;
    }
    const made = await makeCards(ctx, action, event.payload as Record<string, unknown>, eventId);
    ctx.log.info({ action, made }, 'feeds event cards');
  });

export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.feeds.post.scheduled': onPostDue,
  'core.feeds.poll.expired': onPollDue,
  'core.workers.worker.hired': card('core.workers.worker.hired'),
  'core.ats.application.hired': card('core.ats.application.hired'),
  'core.growth.praise.given': card('core.growth.praise.given'),
  'core.growth.goal.completed': card('core.growth.goal.completed'),
};
