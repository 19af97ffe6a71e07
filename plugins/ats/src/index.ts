import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { checks } from './checks.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';
import { subscriptions } from './events/index.js';

/** The Recruiting app: jobs, pipelines, candidates, applications, interviews, scorecards, offers. */
export default defineApp(manifest, { routes, migrations, models, checks, search, subscriptions });
