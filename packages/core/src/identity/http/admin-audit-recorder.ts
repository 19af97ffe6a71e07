import Boom from '@hapi/boom';
import type { Server } from '@hapi/hapi';
import type { Logger } from 'pino';
import type { AdminAudit } from '../services/admin-audit.js';

/**
 * Records every request an owner or admin makes while elevated (admin mode): reads coalesce
 * into one row per actor, action and target (its `hits` counts them); changes get a row each.
 * POST /elevations records itself, with its reason.
 */
export function registerAdminAuditRecorder(server: Server, audit: AdminAudit, logger: Logger, clock: () => Date = () => new Date()): void {
  // Synchronous for every request it does not record (all but elevated owners' and admins').
  server.ext('onPreResponse', (request, h) => {
    const credentials = request.auth.credentials;
    const via = credentials?.via;
    const member = credentials?.member;
    if (!request.auth.isAuthenticated || !via || !member || via.kind !== 'session') return h.continue;
    if (!via.elevatedUntil || via.elevatedUntil.getTime() <= clock().getTime() || member.platformRole === 'member') return h.continue;
    if (request.method === 'post' && request.route.path === '/elevations') return h.continue;
    const response = request.response;
    const status = Boom.isBoom(response) ? response.output.statusCode : (response?.statusCode ?? 200);
    const action = `${request.method.toUpperCase()} ${request.route.path}`;
    const recorded = request.method === 'get' || request.method === 'head' ? audit.recordView(member.workspaceId, member.id, action, request.path, status) : audit.recordChange(member.workspaceId, member.id, action, request.path, status);
    return recorded.then(
      () => h.continue,
      (error: unknown) => {
        logger.error({ req_id: request.info.id, err: error }, 'admin audit: could not record');
        return h.continue;
      },
    );
  });
}
