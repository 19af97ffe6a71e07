import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';

/** The Settings app: the workspace control panel and the owner of organisation reference data. */
export default defineApp(manifest, { routes, migrations, models, search });
