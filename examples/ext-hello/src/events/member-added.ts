import type { SubscriptionHandler } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';
import { sendGreeting } from '../services/greetings.js';

/**
 * `system.workspace.member.added`: welcomes the new member with a greeting from the app, unless
 * the workspace turned `welcome_new_members` off. Deliveries are at-least-once, so a member is
 * welcomed once whatever the number of deliveries.
 */
export const onMemberAdded: SubscriptionHandler<Models, AppTypes, 'system.workspace.member.added'> = async (event, ctx) => {
  if (ctx.settings.welcome_new_members === false) return;
  const memberId = event.payload.member_id;
  // Deliveries may arrive twice at once: the lock makes the second wait, then find the welcome.
  await ctx.lock(`welcome:${memberId}`);
  if ((await ctx.db.greetings.count({ where: { recipient_id: memberId, sender_name: 'Hello app' } })) > 0) return;
  await sendGreeting(ctx, { id: memberId, name: 'Hello app' }, { text: 'welcome aboard!', recipient_id: memberId });
};
