import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { calls } from './services/calls.js';
import { callDocument } from './services/present.js';

/** Full re-index of a workspace: every call, readable by its participants. */
export const search: Record<string, SearchHooks<Models>> = {
  call: {
    async *reindex(ctx) {
      for await (const call of calls.walk(ctx)) {
        const participants = await ctx.db.participants.findAll({ where: { call_id: call.id }, order: [['created_at', 'ASC'], ['member_id', 'ASC']] });
        yield callDocument(call, participants.map((row) => row.member_id));
      }
    },
  },
};
