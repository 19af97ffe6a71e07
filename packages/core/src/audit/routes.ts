import type { ServerRoute } from '@hapi/hapi';
import { Joi, parseInstant } from '@wpk/sdk';
import { requireRole } from '../access/index.js';
import { collection, parsePagination } from '../server/index.js';
import { AUDIT_ENTRY } from './answers.js';
import type { AuditListing } from './audit-listing.js';

/** `GET /audit`: the workspace's audit trail with filters, owners and admins only. */
export function auditEndpoints(listing: AuditListing): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/audit',
      options: {
        app: { wpk: { kind: 'api', scope: 'workspace' }, answers: { collection: AUDIT_ENTRY }, platformAccess: 'account.audit_entries.read' },
        validate: {
          query: Joi.object({
            action: Joi.string()
              .min(1)
              .max(100)
              .pattern(/^[a-z0-9_.-]+\*?$|^\*$/, 'action (letters, digits, dots; a trailing * matches a prefix)'),
            actor: Joi.id(),
            target_type: Joi.string().min(1).max(50),
            target_id: Joi.string().min(1).max(200),
            after: Joi.instant(),
            before: Joi.instant(),
          }).unknown(true),
        },
      },
      handler: async (request) => {
        const actor = requireRole(request, 'admin', 'read the audit trail');
        const query = request.query as { action?: string; actor?: string; target_type?: string; target_id?: string; after?: string; before?: string };
        const pagination = parsePagination(request.query);
        const { rows, total } = await listing.list(
          actor.workspaceId,
          {
            action: query.action,
            actor: query.actor,
            targetType: query.target_type,
            targetId: query.target_id,
            after: query.after ? (parseInstant(query.after) ?? undefined) : undefined,
            before: query.before ? (parseInstant(query.before) ?? undefined) : undefined,
          },
          pagination,
        );
        return collection(request, rows, total, pagination);
      },
    },
  ];
}
