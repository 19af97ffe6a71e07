import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription, type FeedsEventContext } from '../kit.js';
import type { Models } from '../models/index.js';
import { departmentCopy, workerCopy } from '../services/audience.js';
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

/** What a core.workers.worker.* event carries that the audience copy keeps. */
interface WorkerPayload {
  worker_id: string;
  member_id?: string | null;
  department_id?: string | null;
  status: string;
  revision: number;
}

/** Keeps the copy of a worker (a deleted one counts as gone: terminated). */
const keepWorker = (ctx: FeedsEventContext, payload: WorkerPayload, deleted = false) =>
  workerCopy.keep(ctx, payload.worker_id, payload.revision, { member_id: payload.member_id ?? null, department_id: payload.department_id ?? null, status: deleted ? 'terminated' : payload.status });

type WorkerAction = 'core.workers.worker.updated' | 'core.workers.worker.announced' | 'core.workers.worker.department_changed' | 'core.workers.worker.activated' | 'core.workers.worker.offboarding_started' | 'core.workers.worker.terminated' | 'core.workers.worker.rehired' | 'core.workers.worker.deleted';
const onWorker = (action: WorkerAction) => subscription(action, async (event, ctx) => void (await keepWorker(ctx, event.payload as unknown as WorkerPayload, action === 'core.workers.worker.deleted')));

type DepartmentAction = 'core.workers.department.created' | 'core.workers.department.announced' | 'core.workers.department.updated' | 'core.workers.department.moved' | 'core.workers.department.deleted';
const onDepartment = (action: DepartmentAction) =>
  subscription(action, async (event, ctx) => {
    const payload = event.payload as unknown as { department_id: string; name: string; parent_id?: string | null; revision: number };
    await departmentCopy.keep(ctx, payload.department_id, payload.revision, { name: payload.name, parent_id: payload.parent_id ?? null, deleted: action === 'core.workers.department.deleted' });
  });

type BindableAction = 'core.workers.worker.hired' | 'core.ats.application.hired' | 'core.growth.praise.given' | 'core.growth.goal.completed';

/** A bindable catalog action: a card in each channel bound to it, once per delivery id (a hire also joins the workers copy). */
const card = (action: BindableAction) =>
  subscription(action, async (event, ctx) => {
    if (action === 'core.workers.worker.hired') await keepWorker(ctx, event.payload as unknown as WorkerPayload);
    // The delivery's id: the same on every retry of this event to this app.
    const eventId = event.deliveryId || String(event.metadata.event_id ?? '');
    if (!eventId) {
      ctx.log.warn({ action }, 'delivery without an id: no card (cards are made once per delivery id)');
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
  'core.workers.worker.updated': onWorker('core.workers.worker.updated'),
  'core.workers.worker.department_changed': onWorker('core.workers.worker.department_changed'),
  'core.workers.worker.activated': onWorker('core.workers.worker.activated'),
  'core.workers.worker.offboarding_started': onWorker('core.workers.worker.offboarding_started'),
  'core.workers.worker.terminated': onWorker('core.workers.worker.terminated'),
  'core.workers.worker.rehired': onWorker('core.workers.worker.rehired'),
  'core.workers.worker.deleted': onWorker('core.workers.worker.deleted'),
  'core.workers.department.created': onDepartment('core.workers.department.created'),
  'core.workers.department.updated': onDepartment('core.workers.department.updated'),
  'core.workers.department.moved': onDepartment('core.workers.department.moved'),
  'core.workers.department.deleted': onDepartment('core.workers.department.deleted'),
  // Announced after an install: the workers and departments made before the app was installed.
  'core.workers.worker.announced': onWorker('core.workers.worker.announced'),
  'core.workers.department.announced': onDepartment('core.workers.department.announced'),
};
