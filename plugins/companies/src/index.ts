import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';

/** The Companies app: company records other apps reference by `mrn:companies:company:{id}`. */
export default defineApp(manifest, { routes, migrations, models, search });
