import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { checks } from './checks.js';
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';

/**
 * The Tasks app: boards, the incubator, schedules, topics, views. A board view follows
 * `tasks/boards/{board_id}` live (docs/live-updates.md): every change of the board and its tasks.
 */
export default defineApp(manifest, {
  routes,
  migrations,
  models,
  checks,
  subscriptions,
  search,
  live: { boards: { permission: 'tasks.boards.read' } },
});
