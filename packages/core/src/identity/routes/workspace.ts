import type { ServerRoute } from '@hapi/hapi';
import { contentDisposition, Joi, parseInstant } from '@wpk/sdk';
import { stringify } from 'csv-stringify';
import { Readable } from 'node:stream';
import { credentialsOf, hasPlatformRole, requireRole } from '../../access/index.js';
import { collection, parsePagination, single } from '../../server/index.js';
import type { ActivityFilter } from '../services/activity.js';
import { clearSessionCookie } from '../http/cookies.js';
import { fields, inTransaction, ipOf, requireElevation, type RouteDependencies } from './common.js';
import { ACTIVITY_ENTRY, ADMIN_AUDIT_ENTRY, WORKSPACE_DETAIL } from '../answers.js';

const instant = Joi.instant();

// The route validated both with the platform's instant rule, so each parses.
function bounds(query: { after?: string; before?: string }): ActivityFilter {
  return { after: query.after ? (parseInstant(query.after) ?? undefined) : undefined, before: query.before ? (parseInstant(query.before) ?? undefined) : undefined };
}

/** The columns of the activity CSV export, in order. */
export const ACTIVITY_CSV_COLUMNS = ['occurred_at', 'id', 'actor_member_id', 'actor_email', 'action', 'target_type', 'target_id', 'ip', 'details'] as const;

/** The workspace itself, ownership, the admin audit and the activity trail. */
export function workspaceRoutes(dependencies: RouteDependencies): ServerRoute[] {
  const { identity } = dependencies;

  return [
    {
      method: 'GET',
      path: '/workspaces/{id}',
      options: { app: { answers: { single: WORKSPACE_DETAIL }, platformAccess: 'account.workspaces.read' }, validate: { params: Joi.object({ id: fields.id.required() }) } },
      handler: async (request) => single(request, await identity.workspaceAdmin.get(credentialsOf(request).member, (request.params as { id: string }).id)),
    },
    {
      method: 'DELETE',
      path: '/workspaces/{id}',
      options: { app: { platformAccess: 'session', answers: { single: WORKSPACE_DETAIL } }, validate: { params: Joi.object({ id: fields.id.required() }) } },
      handler: async (request, h) => {
        const credentials = credentialsOf(request);
        const actor = requireRole(credentials, 'owner', 'delete the workspace');
        requireElevation(credentials, 'delete the workspace');
        const { id } = request.params as { id: string };
        const answer = await inTransaction(dependencies, request, h, async () => single(request, await identity.workspaceAdmin.delete(actor, id, ipOf(request))));
        clearSessionCookie(h);
        return answer;
      },
    },
    {
      method: 'POST',
      path: '/workspaces/{id}/ownership',
      options: { app: { platformAccess: 'session', answers: { single: WORKSPACE_DETAIL } }, validate: { params: Joi.object({ id: fields.id.required() }), payload: Joi.object({ member_id: fields.id.required() }) } },
      handler: async (request, h) => {
        const credentials = credentialsOf(request);
        const actor = requireRole(credentials, 'owner', 'transfer ownership');
        requireElevation(credentials, 'transfer ownership');
        const { id } = request.params as { id: string };
        const { member_id: memberId } = request.payload as { member_id: string };
        return inTransaction(dependencies, request, h, async (work) => single(request, await identity.workspaceAdmin.transferOwnership(actor, id, memberId, work.stage, ipOf(request))));
      },
    },
    {
      method: 'GET',
      path: '/admin-audit',
      options: { app: { platformAccess: 'account.audit_entries.read', answers: { collection: ADMIN_AUDIT_ENTRY } } },
      handler: async (request) => {
        const actor = requireRole(request, 'admin', 'read the admin audit');
        const pagination = parsePagination(request.query);
        const { rows, total } = await identity.audit.list(actor.workspaceId, pagination);
        return collection(request, rows, total, pagination);
      },
    },
    {
      method: 'GET',
      path: '/activity',
      options: { app: { platformAccess: 'account.activities.read', answers: { collection: ACTIVITY_ENTRY } }, validate: { query: Joi.object({ after: instant, before: instant }).unknown(true) } },
      handler: async (request) => {
        const credentials = credentialsOf(request);
        const pagination = parsePagination(request.query);
        // Owners and admins see the whole workspace; a member sees what they did.
        const actorMemberId = hasPlatformRole(credentials, 'admin') ? undefined : credentials.member.id;
        const { rows, total } = await identity.activity.list(credentials.member.workspaceId, { ...bounds(request.query as { after?: string; before?: string }), actorMemberId }, pagination);
        return collection(request, rows, total, pagination);
      },
    },
    {
      method: 'GET',
      path: '/admin/activity-exports',
      options: { app: { platformAccess: 'account.activities.export', answers: { file: 'text/csv' } }, validate: { query: Joi.object({ after: instant, before: instant }).unknown(true) } },
      handler: async (request, h) => {
        const actor = requireRole(request, 'admin', 'export the audit trail');
        const filter = bounds(request.query as { after?: string; before?: string });
        const rows = Readable.from(
          (async function* () {
            for await (const row of identity.activity.iterate(actor.workspaceId, filter)) {
              yield { ...row, details: JSON.stringify(row.details) };
            }
          })(),
        );
        const csv = rows.pipe(stringify({ header: true, columns: [...ACTIVITY_CSV_COLUMNS] }));
        rows.on('error', (error) => csv.destroy(error));
        const stamp = new Date().toISOString().slice(0, 10);
        return h
          .response(csv)
          .type('text/csv; charset=utf-8')
          .header('content-disposition', contentDisposition(`activity-${request.app.workspace!.subdomain}-${stamp}.csv`));
      },
    },
  ];
}
