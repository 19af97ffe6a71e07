import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { roomDocument } from './services/present.js';
import { readersOf, rooms } from './services/rooms.js';

/** Search hooks: the `room` type is every room (a private one readable by its members only). */
export const search: Record<string, SearchHooks<Models>> = {
  room: {
    async *reindex(ctx) {
      for await (const room of rooms.walk(ctx)) yield roomDocument(room, await readersOf(ctx, room));
    },
  },
};
