import { defineApp, isUuid } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { checks } from './checks.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';

/**
 * The Canvas app: live whiteboards. A board view follows `canvas/boards/{board_id}` live
 * (docs/live-updates.md): the Yjs updates of everyone's edits, comments, voting and exports;
 * cursors travel as the channel's ephemeral signals.
 */
export default defineApp(manifest, {
  routes,
  migrations,
  models,
  checks,
  search,
  live: {
    boards: {
      permission: 'canvas.boards.read',
      signals: true,
      async authorize(id, ctx) {
        return isUuid(id) && (await ctx.db.boards.findById(id)) !== null;
      },
    },
  },
});
