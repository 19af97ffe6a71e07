import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { ensureChart } from '../services/chart.js';
import { followOrganization } from '../services/organization.js';

/** `system.app.installed`: when the installed app is this one, seed the default chart (once). */
export const onAppInstalled = subscription('system.app.installed', async (event, ctx) => {
  if (event.payload.app_slug !== ctx.app.id) return;
  await ensureChart(ctx);
});

/** `core.settings.organization.updated`: the organisation's base currency becomes finance's (newest revision wins). */
export const onOrganizationUpdated = subscription('core.settings.organization.updated', async (event, ctx) => {
  const { base_currency, revision } = event.payload;
  if (typeof base_currency !== 'string' || !/^[A-Z]{3}$/.test(base_currency) || typeof revision !== 'number' || !Number.isInteger(revision) || revision < 1) {
    ctx.log.warn({ action: event.action, delivery: event.deliveryId }, 'organization.updated without a usable base_currency or revision: ignored');
    return;
  }
  await followOrganization(ctx, { base_currency, revision });
});

/** Subscription handlers by action; each action is declared in app.json's subscriptions. */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'system.app.installed': onAppInstalled,
  'core.settings.organization.updated': onOrganizationUpdated,
};
