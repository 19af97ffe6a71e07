import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { callEnded, callStarted } from '../services/calls.js';

/** Another app's payload (validated by the platform against its app.json schema), as this app reads it. */
const read = <T>(event: { payload: object }): T => event.payload as unknown as T;

export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.calls.call.started': subscription('core.calls.call.started', (event, ctx) => callStarted(ctx, read(event))),
  'core.calls.call.ended': subscription('core.calls.call.ended', (event, ctx) => callEnded(ctx, read(event))),
};
