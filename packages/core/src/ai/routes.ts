import type { ServerRoute } from '@hapi/hapi';
import { Joi } from '@wpk/sdk';
import { single } from '../server/index.js';
import { AI_ANSWER } from './answers.js';
import { ChatModelError } from './chat-model.js';
import type { AiCommandService } from './service.js';

/** `POST /ai/commands` (`app` 1-64, `q` 1-2000). */
export function aiEndpoints(service: AiCommandService): ServerRoute[] {
  return [
    {
      method: 'POST',
      path: '/ai/commands',
      options: {
        app: { wpk: { kind: 'api', scope: 'workspace' }, answers: { single: AI_ANSWER }, platformAccess: 'app' },
        validate: { payload: Joi.object({ app: Joi.string().min(1).max(64).required(), q: Joi.string().trim().min(1).max(2000).required() }).unknown(true) },
      },
      handler: async (request, h) => {
        const { app, q } = request.payload as { app: string; q: string };
        try {
          return single(request, await service.answer(request, app, q));
        } catch (error) {
          if (error instanceof ChatModelError) return h.response({ error: `The AI answer failed: ${error.message}` }).code(503);
          throw error;
        }
      },
    },
  ];
}
