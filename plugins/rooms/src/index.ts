import { defineApp, isUuid } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';

/**
 * The Rooms app: persistent rooms with members and roles, whose calls run on the platform's
 * signaling socket (session kind `rooms`: `rooms/rooms/{room_id}`).
 */
export default defineApp(manifest, {
  routes,
  migrations,
  models,
  subscriptions,
  search,
  signaling: {
    rooms: {
      permission: 'rooms.sessions.join',
      /** A member of the room, or anyone who sees a room open to the workspace, once they joined it over HTTP (which checks the lock and the capacity). */
      async authorize(id, ctx) {
        if (!isUuid(id)) return false;
        const room = await ctx.db.rooms.findById(id);
        if (!room) return false;
        const member = await ctx.db.roomMembers.findOne({ where: { room_id: id, member_id: ctx.member.id } });
        if (!member && room.visibility !== 'workspace' && !ctx.permissions.has('rooms.rooms.manage')) return false;
        return (await ctx.db.presences.findOne({ where: { room_id: id, member_id: ctx.member.id } })) !== null;
      },
    },
  },
});
