import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { memberRemoved as onRemoval, subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { memberRemoved } from '../services/member-removal.js';
import { runSweep } from '../services/sweeps.js';

/** `core.account.member.removed` {member_id, removed_by}: the member left; what was shared with them is no longer. Their own files stay for a transfer. */
const onMemberRemoved = onRemoval((ctx, { memberId }) => memberRemoved(ctx, memberId));

/** `core.files.sweep.scheduled` {due_at}: the app's own delayed wake-up (see services/sweeps.ts). */
const onSweepScheduled = subscription('core.files.sweep.scheduled', async (event, ctx) => {
  const result = await runSweep(ctx, event.payload.due_at);
  if (result) ctx.log.info({ action: event.action, ...result }, 'files sweep');
});

export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.account.member.removed': onMemberRemoved,
  'core.files.sweep.scheduled': onSweepScheduled,
};
