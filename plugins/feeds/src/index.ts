import { defineApp, type SearchHooks } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models, type Models } from './models/index.js';
import { routes } from './routes/index.js';
import { postDocument } from './services/present.js';
import { posts } from './services/posts.js';

/** The search types' full re-index of a workspace: every published post. */
const search: Record<string, SearchHooks<Models>> = {
  post: {
    async *reindex(ctx) {
      for await (const post of posts.walk(ctx, { where: { status: 'published' } })) yield postDocument(post)!;
    },
  },
};

/** The Feeds app: the company feed with channels, posts, comments, reactions, announcements and pins. */
export default defineApp(manifest, { routes, migrations, models, subscriptions, search });
