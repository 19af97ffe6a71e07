import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { copyDepartment, copyWorker } from '../services/copies.js';
import { feedKeyResults } from '../services/goals.js';

type Copier = typeof copyWorker;

/** A handler keeping a copy from the payload; a malformed payload is logged and acknowledged (a retry would not fix it). */
const copying = (copy: Copier, deleted: boolean) => async (event: { action: string; payload: object; deliveryId?: string }, ctx: Parameters<Copier>[0]) => {
  if ((await copy(ctx, event.payload as Record<string, unknown>, deleted)) === 'malformed') ctx.log.warn({ action: event.action, delivery: event.deliveryId }, 'payload without id, name or revision: ignored');
};

const worker = copying(copyWorker, false);
const department = copying(copyDepartment, false);

/** A feeding action: event-fed key results move once per delivery id. */
const feeding = async (event: { action: string; payload: object; deliveryId?: string; metadata: Record<string, unknown> }, ctx: Parameters<Copier>[0]) => {
  const deliveryId = event.deliveryId || String(event.metadata.event_id ?? '');
  if (!deliveryId) {
    ctx.log.warn({ action: event.action }, 'delivery without an id: key results not moved (they move once per delivery id)');
    return;
  }
  await feedKeyResults(ctx, event.action, event.payload as Record<string, unknown>, deliveryId);
};

export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.workers.worker.hired': subscription('core.workers.worker.hired', worker),
  'core.workers.worker.updated': subscription('core.workers.worker.updated', worker),
  'core.workers.worker.manager_changed': subscription('core.workers.worker.manager_changed', worker),
  'core.workers.worker.department_changed': subscription('core.workers.worker.department_changed', worker),
  'core.workers.worker.activated': subscription('core.workers.worker.activated', worker),
  'core.workers.worker.offboarding_started': subscription('core.workers.worker.offboarding_started', worker),
  'core.workers.worker.terminated': subscription('core.workers.worker.terminated', worker),
  'core.workers.worker.rehired': subscription('core.workers.worker.rehired', worker),
  'core.workers.worker.deleted': subscription('core.workers.worker.deleted', copying(copyWorker, true)),
  'core.workers.department.created': subscription('core.workers.department.created', department),
  'core.workers.department.updated': subscription('core.workers.department.updated', department),
  'core.workers.department.moved': subscription('core.workers.department.moved', department),
  'core.workers.department.deleted': subscription('core.workers.department.deleted', copying(copyDepartment, true)),
  'core.workers.worker.announced': subscription('core.workers.worker.announced', worker),
  'core.workers.department.announced': subscription('core.workers.department.announced', department),
  'core.tasks.task.completed': subscription('core.tasks.task.completed', feeding),
  'core.ats.application.hired': subscription('core.ats.application.hired', feeding),
};
