import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { EventCtx } from '../kit.js';
import type { Models } from '../models/index.js';
import { expire, remind } from '../services/envelopes.js';
import { draftFromRequest } from '../services/requests.js';

/**
 * Every app's `*.signature_requested` action the app receives (LOOP.md's payload). A manifest names
 * actions exactly, so each one is listed here and in app.json's subscriptions.
 */
export const SIGNATURE_REQUESTS = ['core.crm.quote.signature_requested', 'core.papers.paper.signature_requested'] as const;

const onRequest = async (event: { action: string; payload: object; deliveryId?: string; metadata: Record<string, unknown> }, ctx: EventCtx) => draftFromRequest(ctx, event);

export const subscriptions = {
  ...Object.fromEntries(SIGNATURE_REQUESTS.map((action) => [action, onRequest])),
  'core.sign.reminder.scheduled': async (event, ctx) => remind(ctx, event.payload.envelope_id, event.payload.round),
  'core.sign.expiry.scheduled': async (event, ctx) => expire(ctx, event.payload.envelope_id),
} as SubscriptionHandlers<Models, AppTypes>;
