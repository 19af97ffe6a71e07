import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { memberRemoved as onRemoval } from '../kit.js';
import type { Models } from '../models/index.js';
import { memberRemoved } from '../services/member-removal.js';

/** `core.account.member.removed` {member_id, removed_by}: their mailboxes are unassigned, they leave their groups. */
const onMemberRemoved = onRemoval((ctx, { memberId, removedBy }) => memberRemoved(ctx, memberId, removedBy));

/** Subscription handlers by action; each is declared in app.json. */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.account.member.removed': onMemberRemoved,
};
