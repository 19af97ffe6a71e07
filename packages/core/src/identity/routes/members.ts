import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import { Joi } from '@wpk/sdk';
import { credentialsOf, requireRole } from '../../access/index.js';
import { collection, parsePagination, single } from '../../server/index.js';
import { presentMember } from '../services/members.js';
import { fields, linkBaseOf, inTransaction, ipOf, type RouteDependencies } from './common.js';
import { INVITED_MEMBER, MEMBER, ROLE } from '../answers.js';

const roleIds = Joi.array().items(Joi.id()).max(100);
const permissions = Joi.object().pattern(Joi.string().max(200), Joi.array().items(Joi.string().max(200)).max(500)).max(200);

/** Invitations (sending), members and custom roles. */
export function memberRoutes(dependencies: RouteDependencies): ServerRoute[] {
  const { identity, config } = dependencies;

  return [
    {
      method: 'POST',
      path: '/invitations',
      options: {
        app: { platformAccess: 'account.members.invite', answers: { single: INVITED_MEMBER } },
        validate: {
          payload: Joi.object({ email: fields.email.required(), platform_role: Joi.string().valid('admin', 'member').default('member'), role_ids: roleIds.default([]) }),
        },
      },
      handler: async (request, h) => {
        const actor = requireRole(request, 'admin', 'invite members');
        const payload = request.payload as { email: string; platform_role: 'admin' | 'member'; role_ids: string[] };
        const sent: { invited?: Awaited<ReturnType<typeof identity.invitations.invite>> } = {};
        const answer = await inTransaction(dependencies, request, h, async (work) => {
          const invited = await identity.invitations.invite(actor, { email: payload.email, platformRole: payload.platform_role, roleIds: payload.role_ids }, work.stage, ipOf(request));
          sent.invited = invited;
          const roles = await identity.members.roleIdsOf(invited.member.workspace_id, [invited.member.id]);
          return single(request, { ...presentMember(invited.member, invited.account, roles.get(invited.member.id) ?? []), invitation_expires_at: invited.expiresAt.toISOString() });
        });
        if (sent.invited) {
          const { token, account } = sent.invited;
          const workspace = request.app.workspace!;
          try {
            await identity.context.mailer.send({
              to: account.email,
              subject: `${actor.name} invited you to ${workspace.name}`,
              text: [
                'Hello,',
                '',
                `${actor.name} (${actor.email}) invited you to the workspace "${workspace.name}" as ${payload.platform_role}.`,
                'To join, send the password you choose to this link (PUT, JSON body {"password": "..."}):',
                '',
                `${linkBaseOf(request, config)}/invitations/${token}`,
                '',
                'The link works once, within 7 days.',
              ].join('\n'),
            });
          } catch (error) {
            identity.context.logger.error({ err: error, req_id: request.info.id }, 'invitation mail failed');
            throw Boom.serverUnavailable('The invitation was saved but its mail could not be sent; invite again to resend it');
          }
        }
        return answer;
      },
    },
    {
      method: 'GET',
      path: '/members',
      options: { app: { answers: { collection: MEMBER }, platformAccess: 'account.members.read' }, validate: { query: Joi.object({ state: Joi.string().valid('invited', 'joined') }).unknown(true) } },
      handler: async (request) => {
        const { member } = credentialsOf(request);
        const pagination = parsePagination(request.query);
        const { rows, total } = await identity.members.list(member.workspaceId, { state: (request.query as { state?: 'invited' | 'joined' }).state }, pagination);
        return collection(request, rows, total, pagination);
      },
    },
    {
      method: 'GET',
      path: '/members/{member_id}',
      options: { app: { answers: { single: MEMBER }, platformAccess: 'account.members.read' }, validate: { params: Joi.object({ member_id: fields.id.required() }) } },
      handler: async (request) => single(request, await identity.members.get(credentialsOf(request).member.workspaceId, (request.params as { member_id: string }).member_id)),
    },
    {
      method: 'PATCH',
      path: '/members/{member_id}',
      options: {
        app: { answers: { single: MEMBER }, platformAccess: 'account.members.edit' },
        validate: {
          params: Joi.object({ member_id: fields.id.required() }),
          payload: Joi.object({ platform_role: Joi.string().valid('admin', 'member'), role_ids: roleIds }),
        },
      },
      handler: async (request, h) => {
        const actor = requireRole(request, 'admin', 'change members');
        const payload = request.payload as { platform_role?: 'admin' | 'member'; role_ids?: string[] };
        const { member_id: memberId } = request.params as { member_id: string };
        return inTransaction(dependencies, request, h, async (work) =>
          single(request, await identity.members.update(actor, memberId, { platformRole: payload.platform_role, roleIds: payload.role_ids }, work.stage, ipOf(request))),
        );
      },
    },
    {
      method: 'DELETE',
      path: '/members/{member_id}',
      options: { app: { answers: { single: MEMBER }, platformAccess: 'account.members.delete' }, validate: { params: Joi.object({ member_id: fields.id.required() }) } },
      handler: async (request, h) => {
        const actor = requireRole(request, 'admin', 'remove members');
        const { member_id: memberId } = request.params as { member_id: string };
        return inTransaction(dependencies, request, h, async (work) => single(request, await identity.members.deactivate(actor, memberId, work.stage, ipOf(request))));
      },
    },
    {
      method: 'GET',
      path: '/roles',
      options: { app: { answers: { collection: ROLE }, platformAccess: 'account.roles.read' } },
      handler: async (request) => {
        const pagination = parsePagination(request.query);
        const { rows, total } = await identity.roles.list(credentialsOf(request).member.workspaceId, pagination);
        return collection(request, rows, total, pagination);
      },
    },
    {
      method: 'GET',
      path: '/roles/{role_id}',
      options: { app: { answers: { single: ROLE }, platformAccess: 'account.roles.read' }, validate: { params: Joi.object({ role_id: fields.id.required() }) } },
      handler: async (request) => single(request, await identity.roles.get(credentialsOf(request).member.workspaceId, (request.params as { role_id: string }).role_id)),
    },
    {
      method: 'POST',
      path: '/roles',
      options: { app: { answers: { single: ROLE }, platformAccess: 'account.roles.manage' }, validate: { payload: Joi.object({ name: Joi.string().trim().min(1).max(100).required(), permissions: permissions.default({}) }) } },
      handler: async (request, h) => {
        const actor = requireRole(request, 'admin', 'manage roles');
        const payload = request.payload as { name: string; permissions: Record<string, string[]> };
        return inTransaction(dependencies, request, h, async (work) => single(request, await identity.roles.create(actor, payload, work.stage, ipOf(request))));
      },
    },
    {
      method: 'PATCH',
      path: '/roles/{role_id}',
      options: {
        app: { answers: { single: ROLE }, platformAccess: 'account.roles.manage' },
        validate: {
          params: Joi.object({ role_id: fields.id.required() }),
          payload: Joi.object({ name: Joi.string().trim().min(1).max(100), permissions }),
        },
      },
      handler: async (request, h) => {
        const actor = requireRole(request, 'admin', 'manage roles');
        const payload = request.payload as { name?: string; permissions?: Record<string, string[]> };
        const { role_id: roleId } = request.params as { role_id: string };
        return inTransaction(dependencies, request, h, async (work) => single(request, await identity.roles.update(actor, roleId, payload, work.stage, ipOf(request))));
      },
    },
    {
      method: 'DELETE',
      path: '/roles/{role_id}',
      options: { app: { answers: { single: ROLE }, platformAccess: 'account.roles.manage' }, validate: { params: Joi.object({ role_id: fields.id.required() }) } },
      handler: async (request, h) => {
        const actor = requireRole(request, 'admin', 'manage roles');
        const { role_id: roleId } = request.params as { role_id: string };
        return inTransaction(dependencies, request, h, async (work) => single(request, await identity.roles.delete(actor, roleId, work.stage, ipOf(request))));
      },
    },
  ];
}
