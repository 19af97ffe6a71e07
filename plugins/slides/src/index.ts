import { defineApp, isUuid } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { checks } from './checks.js';
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';

/**
 * Slides: presentations. Live channels (docs/live-updates.md): `slides/presentations/{id}` carries
 * a presentation's `slide.changed`, `driver.changed` and `presentation.ended` to its followers on
 * every server process; `slides/decks/{id}` a deck's `doc.updated` (a Yjs update of its slides,
 * base64: everyone's edits), `deck.updated` (new version), `deck.deleted`, `comment.*` and
 * `presentation.started|ended`; who is here travels as that channel's ephemeral signals.
 */
export default defineApp(manifest, {
  routes,
  migrations,
  models,
  checks,
  subscriptions,
  search,
  live: {
    presentations: {
      permission: 'slides.decks.read',
      async authorize(id, ctx) {
        return isUuid(id) && (await ctx.db.presentations.findById(id)) !== null;
      },
    },
    decks: {
      permission: 'slides.decks.read',
      signals: true,
      async authorize(id, ctx) {
        return isUuid(id) && (await ctx.db.decks.findById(id)) !== null;
      },
    },
  },
});
