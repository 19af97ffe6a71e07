import type { SearchDocument, SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { preview } from './services/present.js';

/** Search hooks: the `message` type is the messages of channels (private chats stay out of the platform search). */
export const search: Record<string, SearchHooks<Models>> = {
  message: {
    async *reindex(ctx) {
      const channels = await ctx.db.chats.findAll({ where: { type: 'channel' } });
      for (const chat of channels) {
        for (const message of await ctx.db.messages.findAll({ where: { chat_id: chat.id, deleted_at: null }, order: [['seq', 'ASC']] })) {
          if (!message.body.trim()) continue;
          const document: SearchDocument = { type: 'message', id: message.id, title: preview(message.body).slice(0, 120), subtitle: `#${chat.name ?? chat.id}`, url: `/chats/${chat.id}/messages?after=${Number(message.seq) - 1}`, names: [message.body], details: [chat.name ?? ''] };
          yield document;
        }
      }
    },
  },
};
