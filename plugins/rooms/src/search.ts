import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { roomDocument } from './services/rooms.js';

/** Search hooks: the `room` type is every room (a private one readable by its members only). */
export const search: Record<string, SearchHooks<Models>> = {
  room: {
    async *reindex(ctx) {
      for (const room of await ctx.db.rooms.findAll({ order: [['created_at', 'ASC'], ['id', 'ASC']] })) {
        const members = room.visibility === 'private' ? (await ctx.db.roomMembers.findAll({ where: { room_id: room.id }, order: [['member_id', 'ASC']] })).map((row) => row.member_id) : [];
        yield roomDocument(room, members);
      }
    },
  },
};
