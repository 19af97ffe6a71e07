import { route } from '../kit.js';
import { MY_PERMISSIONS } from './answers.js';

/**
 * The caller's own keys in the app, so the front-end hides what they would refuse (the routes
 * still refuse it). It needs `ats.jobs.read`, the key of the front-end's first screen (an
 * authorization chain is never empty); without it the front-end shows only what its reads return.
 */
export const meRoutes = [
  route({
    method: 'GET', path: '/ats/me/permissions', chain: ['ats.jobs.read'], answers: { single: MY_PERMISSIONS }, description: "The caller's own permission keys in the app (what the front-end offers)",
    handler: async (_request, ctx) => ctx.respond.single({ keys: [...ctx.permissions.keys()].filter((key) => key.startsWith('ats.')).sort() }),
  }),
];
