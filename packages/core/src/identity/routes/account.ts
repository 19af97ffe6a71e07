import Boom from '@hapi/boom';
import type { Request, ServerRoute } from '@hapi/hapi';
import { ForbiddenError, Joi, NotFoundError } from '@wpk/sdk';
import { credentialsOf } from '../../access/index.js';
import { single } from '../../server/index.js';
import { clearSessionCookie, setSessionCookie } from '../http/cookies.js';
import { AVATAR_MAX_BYTES, AVATAR_TYPES, type AvatarType } from '../services/avatars.js';
import { confirmPassword } from '../services/reauthentication.js';
import type { StartedSession } from '../services/sessions.js';
import { fields, inTransaction, ipOf, presentMe, requireSession, type RouteDependencies } from './common.js';
import { ELEVATION, ME, MEMBER, MY_WORKSPACE, SIGNED_OUT, TOTP_DISABLED, TOTP_ENABLED, TOTP_ENROLLMENT } from '../answers.js';
import { QueryTypes } from 'sequelize';
import { publicOrigin } from '../../tenancy/index.js';
import { collection } from '../../server/index.js';

function contentType(request: Request): string {
  return String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/** The caller's own account: who am I, sign-out, 2FA, elevation, avatars. */
export function accountRoutes(dependencies: RouteDependencies): ServerRoute[] {
  const { identity, config } = dependencies;

  return [
    {
      method: 'GET',
      path: '/me',
      options: { app: { platformAccess: 'caller', answers: { single: ME } } },
      handler: async (request) => {
        const { member, via } = credentialsOf(request);
        return single(request, await presentMe(dependencies, member.workspaceId, member.id, { kind: via.kind, elevatedUntil: via.kind === 'session' ? via.elevatedUntil : null }));
      },
    },
    {
      // The workspace switcher: every workspace the caller's account has joined (active ones), by
      // name. It crosses tenants by nature, so it answers the person's own browser session only:
      // never a key of this workspace (scoped or not, the member's own or one an admin made for them).
      method: 'GET',
      path: '/me/workspaces',
      options: { app: { platformAccess: 'session', answers: { collection: MY_WORKSPACE } } },
      handler: async (request) => {
        const credentials = credentialsOf(request);
        requireSession(credentials, "list the account's other workspaces (they belong to other tenants)");
        const { member } = credentials;
        const rows = await identity.context.sequelize.query<{ id: string; subdomain: string; name: string; platform_role: string }>(
          `SELECT w.id, w.subdomain, w.name, m.platform_role FROM platform.members m JOIN platform.workspaces w ON w.id = m.workspace_id
            WHERE m.account_id = :accountId AND m.state = 'joined' AND m.deactivated_at IS NULL AND w.status = 'active' ORDER BY w.name, w.subdomain`,
          { type: QueryTypes.SELECT, replacements: { accountId: member.accountId } },
        );
        const list = rows.map((row) => ({ ...row, url: publicOrigin(config.publicUrl, row.subdomain), current: row.id === member.workspaceId }));
        return collection(request, list, list.length, { page: 1, perPage: Math.max(1, list.length), offset: 0, limit: Math.max(1, list.length) });
      },
    },
    {
      method: 'DELETE',
      path: '/sessions',
      options: { app: { platformAccess: 'session', answers: { single: SIGNED_OUT } } },
      handler: async (request, h) => {
        const credentials = credentialsOf(request);
        const sessionId = requireSession(credentials, 'sign out');
        await identity.sessions.end(credentials.member, sessionId, ipOf(request));
        clearSessionCookie(h);
        return single(request, { signed_out: true });
      },
    },
    {
      method: 'POST',
      path: '/totps',
      options: { app: { platformAccess: 'session', answers: { single: TOTP_ENROLLMENT } } },
      handler: async (request) => {
        const credentials = credentialsOf(request);
        requireSession(credentials, 'change two-factor settings');
        const workspace = request.app.workspace!;
        const enrollment = await identity.twoFactor.beginEnrollment(credentials.member.accountId, `${workspace.name} (${config.baseDomain})`);
        return single(request, { ...enrollment, digits: 6, period: 30, algorithm: 'SHA1' });
      },
    },
    {
      method: 'PUT',
      path: '/totps',
      options: { app: { platformAccess: 'session', answers: { single: TOTP_ENABLED } }, validate: { payload: Joi.object({ code: Joi.string().length(6).required() }) } },
      handler: async (request, h) => {
        const credentials = credentialsOf(request);
        requireSession(credentials, 'change two-factor settings');
        const { code } = request.payload as { code: string };
        const step = await identity.twoFactor.checkEnrollmentCode(credentials.member.accountId, code);
        return inTransaction(dependencies, request, h, async () => {
          const recoveryCodes = await identity.twoFactor.enable(credentials.member.accountId, step, credentials.member.workspaceId, credentials.member.id, ipOf(request));
          return single(request, { enabled: true, recovery_codes: recoveryCodes });
        });
      },
    },
    {
      method: 'DELETE',
      path: '/totps',
      options: { app: { platformAccess: 'session', answers: { single: TOTP_DISABLED } }, validate: { payload: Joi.object({ password: Joi.string().min(1).max(1024).required() }) } },
      handler: async (request, h) => {
        const credentials = credentialsOf(request);
        requireSession(credentials, 'change two-factor settings');
        const { password } = request.payload as { password: string };
        const account = await identity.context.models.Account.findByPk(credentials.member.accountId, { rejectOnEmpty: true });
        if (!(await confirmPassword(identity.context, account, password, ipOf(request)))) throw new ForbiddenError('Invalid password');
        return inTransaction(dependencies, request, h, async () => {
          await identity.twoFactor.disable(account.id, credentials.member.workspaceId, credentials.member.id, ipOf(request));
          return single(request, { enabled: false });
        });
      },
    },
    {
      method: 'POST',
      path: '/elevations',
      options: {
        app: { platformAccess: 'session', answers: { single: ELEVATION } },
        validate: {
          payload: Joi.object({
            reason: Joi.string().trim().min(3).max(500).required(),
            code: Joi.string().length(6),
            totp: Joi.string().trim().min(6).max(10),
            password: Joi.string().min(1).max(1024),
          }),
        },
      },
      handler: async (request, h) => {
        const credentials = credentialsOf(request);
        const sessionId = requireSession(credentials, 'enter admin mode');
        const proof = request.payload as { reason: string; code?: string; totp?: string; password?: string };
        const kind = await identity.sessions.checkElevationProof(credentials.member, proof, ipOf(request));
        const started: { session?: StartedSession } = {};
        const answer = await inTransaction(dependencies, request, h, async () => {
          started.session = await identity.sessions.elevate(credentials.member, sessionId, proof.reason, kind, ipOf(request));
          return single(request, { elevated_until: started.session.elevatedUntil!.toISOString(), proof: kind });
        });
        if (started.session) setSessionCookie(h, started.session);
        return answer;
      },
    },
    {
      method: 'GET',
      path: '/avatars/{member_id}',
      // An <img> cannot send X-Api-Version, so the image is not a versioned API route; nor is it a
      // page (a refusal stays a JSON error rather than an HTML error page).
      options: { app: { platformAccess: 'account.members.read', wpk: { kind: 'system' } }, validate: { params: Joi.object({ member_id: fields.id.required() }) } },
      handler: async (request, h) => {
        const { member_id: memberId } = request.params as { member_id: string };
        const image = await identity.avatars.read(credentialsOf(request).member.workspaceId, memberId);
        if (!image) throw new NotFoundError('This member has no avatar; show their initials');
        return h.response(image.data).type(image.type).header('cache-control', 'private, max-age=86400');
      },
    },
    {
      method: 'POST',
      path: '/avatars/{member_id}',
      options: {
        app: { platformAccess: 'account.avatars.edit', answers: { single: MEMBER }, wpk: { contentTypes: [...AVATAR_TYPES] } },
        payload: {
          parse: false,
          output: 'data',
          maxBytes: AVATAR_MAX_BYTES,
          allow: [...AVATAR_TYPES],
          failAction: (_request, _h, error) => {
            const status = (error as Boom.Boom | undefined)?.output?.statusCode;
            if (status === 413) throw Boom.entityTooLarge(`Avatar images must be at most ${AVATAR_MAX_BYTES / 1024 / 1024} MiB (${AVATAR_MAX_BYTES} bytes)`);
            if (status === 415) throw Boom.unsupportedMediaType('Avatars must be PNG, JPEG or WebP images (Content-Type image/png, image/jpeg or image/webp)');
            throw error ?? Boom.badRequest('Unreadable avatar upload');
          },
        },
        validate: { params: Joi.object({ member_id: fields.id.required() }) },
      },
      handler: async (request, h) => {
        const { member_id: memberId } = request.params as { member_id: string };
        const credentials = credentialsOf(request);
        const data = Buffer.isBuffer(request.payload) ? request.payload : Buffer.alloc(0);
        return inTransaction(dependencies, request, h, async (work) =>
          single(request, await identity.avatars.upload(credentials.member, memberId, contentType(request) as AvatarType, data, work.stage, ipOf(request))),
        );
      },
    },
    {
      method: 'DELETE',
      path: '/avatars/{member_id}',
      options: { app: { platformAccess: 'account.avatars.edit', answers: { single: MEMBER } }, validate: { params: Joi.object({ member_id: fields.id.required() }) } },
      handler: async (request, h) => {
        const { member_id: memberId } = request.params as { member_id: string };
        const credentials = credentialsOf(request);
        return inTransaction(dependencies, request, h, async (work) => single(request, await identity.avatars.clear(credentials.member, memberId, work.stage, ipOf(request))));
      },
    },
  ];
}
