import { isUuid, type SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { memberRemoved } from '../services/member-removal.js';

/** `core.account.member.removed` {member_id, removed_by}: their mailboxes are unassigned, they leave their groups. */
const onMemberRemoved = subscription('core.account.member.removed', async (event, ctx) => {
  const memberId: unknown = event.payload.member_id;
  if (typeof memberId !== 'string' || !isUuid(memberId)) return;
  const removedBy = typeof event.payload.removed_by === 'string' && isUuid(event.payload.removed_by) ? event.payload.removed_by : null;
  await memberRemoved(ctx, memberId.toLowerCase(), removedBy);
});

/** Subscription handlers by action; each is declared in app.json. */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.account.member.removed': onMemberRemoved,
};
