import { onMemberAdded } from './member-added.js';
import { onMemberRemoved } from './member-removed.js';

/** Subscription handlers by action; each action is declared in app.json's subscriptions. */
export const subscriptions = {
  'core.account.member.removed': onMemberRemoved,
  'system.workspace.member.added': onMemberAdded,
};
