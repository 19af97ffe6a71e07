import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';

/**
 * The Meetings app: scheduled meetings with member and outside attendees, iCalendar invitations
 * by mail, the meeting's call (kept from the calls app's events), and revocable upload grants.
 */
export default defineApp(manifest, { routes, migrations, models, subscriptions, search });
