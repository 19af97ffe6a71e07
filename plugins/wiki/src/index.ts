import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';

/** Wiki: the app as the platform loads it. */
export default defineApp(manifest, { routes, migrations, models, subscriptions, search });
