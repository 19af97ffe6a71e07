import { definePublicRoute } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';

/** GET /hello: public (no credential), answered only where the app is installed. */
export const helloRoutes = [
  definePublicRoute<Models, AppTypes>({
    method: 'GET',
    path: '/hello',
    description: 'A public hello from the workspace.',
    handler: async (_request, ctx) => ({ data: { message: `${ctx.settings.prefix} from ${ctx.workspace.name}`, greetings: await ctx.db.greetings.count() } }),
  }),
];
