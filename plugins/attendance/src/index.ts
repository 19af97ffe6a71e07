import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';

/** The Attendance app: geofenced locations (its own, or Settings' with its geofence), clocking, breaks, timesheets, corrections, CSV export. */
export default defineApp(manifest, { routes, migrations, models, subscriptions, search });
