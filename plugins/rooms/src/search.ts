import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { roomDocument } from './services/rooms.js';

/** Search hooks: the `room` type is the rooms open to the workspace (private rooms stay out of the platform search). */
export const search: Record<string, SearchHooks<Models>> = {
  room: {
    async reindex(ctx) {
      return (await ctx.db.rooms.findAll({ where: { visibility: 'workspace' }, order: [['created_at', 'ASC'], ['id', 'ASC']] })).map(roomDocument);
    },
  },
};
