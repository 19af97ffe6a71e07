import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { checks } from './checks.js';
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';

/** The Files app: members' spaces of folders and files, uploads, versions, trash, shares, quotas, offboarding. */
export default defineApp(manifest, { routes, migrations, models, checks, subscriptions, search });
