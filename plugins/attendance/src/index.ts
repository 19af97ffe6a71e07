import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';

/** The Attendance app: geofenced locations, clocking, breaks, timesheets, corrections, CSV export. */
export default defineApp(manifest, { routes, migrations, models, search });
