import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';
import { subscriptions } from './events/index.js';

/** The Growth app: competencies (`mrn:growth:competency:{id}`), goals, review cycles, 1:1s, feedback and praise. */
export default defineApp(manifest, { migrations, models, routes, search, subscriptions });
