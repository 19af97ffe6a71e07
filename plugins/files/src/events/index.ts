import type { SubscriptionHandler, SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';
import { recordMemberAdded, recordMemberRemoved } from '../services/members-directory.js';
import { runSweep } from '../services/sweeps.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `system.workspace.member.added` {member_id}: the member is present (again). */
const onMemberAdded: SubscriptionHandler<Models, AppTypes, 'system.workspace.member.added'> = async (event, ctx) => {
  const memberId: unknown = event.payload.member_id;
  if (typeof memberId !== 'string' || !UUID.test(memberId)) {
    ctx.log.warn({ action: event.action, delivery: event.deliveryId }, 'member.added without a usable member_id: ignored');
    return;
  }
  await recordMemberAdded(ctx, memberId);
};

/** `core.account.member.removed` {member_id, removed_by}: the member left; what was shared with them is no longer. Their own files stay for a transfer. */
const onMemberRemoved: SubscriptionHandler<Models, AppTypes, 'core.account.member.removed'> = async (event, ctx) => {
  const { member_id: memberId, removed_by: removedBy }: { member_id: unknown; removed_by?: unknown } = event.payload;
  if (typeof memberId !== 'string' || !UUID.test(memberId)) {
    ctx.log.warn({ action: event.action, delivery: event.deliveryId }, 'member.removed without a usable member_id: ignored');
    return;
  }
  await recordMemberRemoved(ctx, memberId, typeof removedBy === 'string' && UUID.test(removedBy) ? removedBy : null);
};

/** `core.files.sweep.scheduled` {due_at}: the app's own delayed wake-up (see services/sweeps.ts). */
const onSweepScheduled: SubscriptionHandler<Models, AppTypes, 'core.files.sweep.scheduled'> = async (event, ctx) => {
  const result = await runSweep(ctx, event.payload.due_at);
  if (result) ctx.log.info({ action: event.action, ...result }, 'files sweep');
};

export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.account.member.removed': onMemberRemoved,
  'system.workspace.member.added': onMemberAdded,
  'core.files.sweep.scheduled': onSweepScheduled,
};
