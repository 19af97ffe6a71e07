import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';

/**
 * The Chat app: direct chats, groups and channels with threads, reactions, mentions, files, lists
 * and unread counts. Live channels: `chat/chats/{id}` (a chat's participants) and
 * `chat/members/{id}` (a member's own news).
 */
export default defineApp(manifest, {
  routes,
  migrations,
  models,
  subscriptions,
  search,
  live: {
    chats: {
      permission: 'chat.messages.read',
      async authorize(id, ctx) {
        return /^[0-9a-f-]{36}$/i.test(id) && (await ctx.db.participants.findOne({ where: { chat_id: id, member_id: ctx.member.id } })) !== null;
      },
    },
    members: {
      permission: 'chat.chats.read',
      authorize: (id, ctx) => id === ctx.member.id,
    },
  },
});
