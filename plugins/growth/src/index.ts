import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { search } from './search.js';
import { routes } from './routes/index.js';
import { models } from './models/index.js';
import { migrations } from './migrations/index.js';

/** The Growth app: competencies (`mrn:growth:competency:{id}`), goals, review cycles, 1:1s, feedback and praise. */
export default defineApp(manifest, { models, migrations, routes, subscriptions, search });
