import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { ensureChart } from '../services/chart.js';

/** `system.app.installed`: when the installed app is this one, seed the default chart (once). */
export const onAppInstalled = subscription('system.app.installed', async (event, ctx) => {
  if (event.payload.app_slug !== ctx.app.id) return;
  await ensureChart(ctx);
});

/** Subscription handlers by action; each action is declared in app.json's subscriptions. */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'system.app.installed': onAppInstalled,
};
