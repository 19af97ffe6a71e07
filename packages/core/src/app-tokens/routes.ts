import type { ServerRoute } from '@hapi/hapi';
import { Joi, recordSchema } from '@wpk/sdk';
import type { ObjectSchema } from 'joi';
import { credentialsOf } from '../access/index.js';
import { single } from '../server/index.js';
import type { AppTokenService } from './service.js';

const APP_TOKEN: ObjectSchema = recordSchema({
  token: Joi.string().description('`Authorization: Bearer` on the app\'s routes; never stored by the platform'),
  app: Joi.string().description('The only app whose routes the token reaches'),
  expires_at: Joi.date().iso(),
  permissions: Joi.array().items(Joi.string()).description("The member's permission keys in the app when the token was issued (every declared key for owners and admins): what the front-end offers. The server still judges each request"),
}).id('AppToken');

/** `POST /app-tokens`: the shell asks for its app's token (docs/ui.md, "The bridge"). */
export function appTokenRoutes(tokens: AppTokenService): ServerRoute[] {
  return [
    {
      method: 'POST',
      path: '/app-tokens',
      options: {
        description: "A short-lived token for one app's front-end, limited to that app's routes and the member's permissions there (browser sessions only)",
        app: { platformAccess: 'session', answers: { single: APP_TOKEN } },
        validate: { payload: Joi.object({ app: Joi.string().trim().pattern(/^[a-z0-9][a-z0-9._-]{0,99}$/).required() }).required() },
      },
      handler: async (request, h) => {
        const issued = await tokens.issue(credentialsOf(request), (request.payload as { app: string }).app);
        return h.response(single(request, issued, { self: '/app-tokens' })).header('cache-control', 'no-store');
      },
    },
  ];
}
