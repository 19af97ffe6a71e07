import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';
import { mayJoinSession } from './services/sessions.js';

/**
 * The Calls app: instant and scheduled calls, participants with roles, WebRTC sessions over the
 * platform's signaling socket (session kind `calls`: `calls/calls/{call id}`), reminders and
 * recordings. Calls are also made from a chat's call request and from scheduled meetings.
 */
export default defineApp(manifest, {
  routes,
  migrations,
  models,
  subscriptions,
  search,
  signaling: {
    calls: {
      permission: 'calls.calls.join',
      authorize: (id, ctx) => mayJoinSession(ctx, id),
    },
  },
});
