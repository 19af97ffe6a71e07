import type { ServerRoute } from '@hapi/hapi';
import type { Database } from './database.js';

/** `GET /health`: public; 200 while the database answers, 503 when it does not. */
export function healthRoutes(db: Database): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/health',
      options: { auth: false, app: { wpk: { kind: 'system', scope: 'any' } } },
      handler: async (_request, h) => {
        const up = await db.ping();
        if (!up) return h.response({ error: 'Database unreachable', database: 'unreachable' }).code(503);
        return { status: 'ok', database: 'ok' };
      },
    },
  ];
}
