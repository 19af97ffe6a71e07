import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { search } from './search.js';
import { routes } from './routes/index.js';
import { models } from './models/index.js';
import { migrations } from './migrations/index.js';

/** The Workers app: the HR directory other apps reference by `mrn:workers:worker:{id}`. */
export default defineApp(manifest, { models, migrations, routes, subscriptions, search });
