import type { SubscriptionHandler, SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';
import { recordMemberAdded, recordMemberRemoved } from '../services/members.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `system.workspace.member.added` {member_id, role}: present again (idempotent). */
const onMemberAdded: SubscriptionHandler<Models, AppTypes, 'system.workspace.member.added'> = async (event, ctx) => {
  const memberId: unknown = event.payload.member_id;
  if (typeof memberId !== 'string' || !UUID.test(memberId)) return;
  await recordMemberAdded(ctx, memberId);
};

/** `core.account.member.removed` {member_id, removed_by}: their mailboxes are unassigned, they leave their groups. */
const onMemberRemoved: SubscriptionHandler<Models, AppTypes, 'core.account.member.removed'> = async (event, ctx) => {
  const memberId: unknown = event.payload.member_id;
  if (typeof memberId !== 'string' || !UUID.test(memberId)) return;
  const removedBy = typeof event.payload.removed_by === 'string' && UUID.test(event.payload.removed_by) ? event.payload.removed_by : null;
  await recordMemberRemoved(ctx, memberId, removedBy);
};

/** Subscription handlers by action; each is declared in app.json. */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.account.member.removed': onMemberRemoved,
  'system.workspace.member.added': onMemberAdded,
};
