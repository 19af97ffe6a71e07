import { defineApp, type SearchHooks } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models, type Models } from './models/index.js';
import { routes } from './routes/index.js';
import { locations } from './services/locations.js';
import { locationDocument } from './services/present.js';

/** The search types' full re-index of a workspace: every location. */
const search: Record<string, SearchHooks<Models>> = {
  location: {
    async *reindex(ctx) {
      for await (const location of locations.walk(ctx)) yield locationDocument(location);
    },
  },
};

/** The Settings app: the workspace control panel and the owner of organisation reference data. */
export default defineApp(manifest, { routes, migrations, models, search, subscriptions });
