import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import { Joi } from '@wpk/sdk';
import { single } from '../../server/index.js';
import { setDeviceCookie, setSessionCookie } from '../http/cookies.js';
import { DEVICE_COOKIE } from '../services/known-devices.js';
import { PASSWORD_RESET_TTL_SECONDS } from '../services/password-resets.js';
import type { StartedSession } from '../services/sessions.js';
import { SIGNUP_CODE_LENGTH, SIGNUP_TTL_SECONDS } from '../services/signup.js';
import { linkBaseOf, fields, inTransaction, ipOf, presentMe, type RouteDependencies } from './common.js';
import { ME, NOTICE, SIGNUP } from '../answers.js';

/**
 * The sign-up verification mail: a fixed text, the code and links from configuration. Nothing
 * the requester typed (no name, no workspace name, no subdomain) goes into it, so sign-up cannot
 * be used to mail a stranger a message of one's own (issue 38, item 6).
 */
export function signupMailText(code: string, linkBase: string): string {
  return [
    'Your verification code is:',
    '',
    `    ${code}`,
    '',
    `Enter it, with the password you choose, at ${linkBase}/verify`,
    `(or send it to POST ${linkBase}/verifications as {"code": "${code}", "password": "..."}).`,
    `It works once, within ${SIGNUP_TTL_SECONDS / 3600} hours.`,
    '',
    'Someone asked to create a workspace with this email address. If it was not you, ignore this mail:',
    'nothing is created without the code.',
  ].join('\n');
}

const RESET_ANSWER = 'If this email has an account here, a password-reset link is on its way; it works once, for one hour';

/** Public routes (no credential): sign-up, verification, sign-in, invitation acceptance, password resets. */
export function publicRoutes(dependencies: RouteDependencies): ServerRoute[] {
  const { identity, config } = dependencies;
  const mailer = identity.context.mailer;
  const logger = identity.context.logger;

  return [
    {
      method: 'POST',
      path: '/signup',
      options: {
        auth: false,
        app: { wpk: { scope: 'platform' }, answers: { single: SIGNUP } },
        validate: {
          payload: Joi.object({ email: fields.email.required(), name: fields.name.required(), workspace_name: fields.name.required(), subdomain: Joi.string().trim().lowercase().min(3).max(63).required() }),
        },
      },
      handler: async (request) => {
        const payload = request.payload as { email: string; name: string; workspace_name: string; subdomain: string };
        const { code, signup } = await identity.signups.start({ email: payload.email, name: payload.name, workspaceName: payload.workspace_name, subdomain: payload.subdomain });
        try {
          await mailer.send({ to: signup.email, subject: `Your verification code: ${code}`, text: signupMailText(code, linkBaseOf(request, config)) });
        } catch (error) {
          logger.error({ err: error, req_id: request.info.id }, 'sign-up mail failed');
          throw Boom.serverUnavailable('The verification mail could not be sent; try again later');
        }
        return single(request, { email: signup.email, subdomain: signup.subdomain, expires_at: signup.expires_at.toISOString() });
      },
    },
    {
      method: 'POST',
      path: '/verifications',
      options: {
        auth: false,
        app: { wpk: { scope: 'platform' }, answers: { single: ME } },
        validate: { payload: Joi.object({ code: Joi.string().trim().length(SIGNUP_CODE_LENGTH).required(), password: fields.password.required() }) },
      },
      handler: async (request, h) => {
        const payload = request.payload as { code: string; password: string };
        const { signup, passwordHash } = await identity.signups.check(payload.code, payload.password, ipOf(request));
        const started: { session?: StartedSession } = {};
        const answer = await inTransaction(dependencies, request, h, async (work) => {
          const created = await identity.signups.complete(signup, passwordHash, work.stage, ipOf(request));
          // Events of this request belong to the workspace it just created.
          request.app.workspace = created.workspace;
          started.session = await identity.sessions.start(created.member, created.account);
          return single(request, await presentMe(dependencies, created.member.workspace_id, created.member.id, { kind: 'session', elevatedUntil: null }));
        });
        if (started.session) setSessionCookie(h, started.session);
        return answer;
      },
    },
    {
      method: 'POST',
      path: '/sessions',
      options: {
        auth: false,
        app: { answers: { single: ME } },
        validate: { payload: Joi.object({ email: fields.email.required(), password: Joi.string().min(1).max(1024).required(), totp: Joi.string().trim().min(6).max(10) }) },
      },
      handler: async (request, h) => {
        const payload = request.payload as { email: string; password: string; totp?: string };
        const device = identity.context.devices.read(request.state[DEVICE_COOKIE]);
        const { session, member, account } = await identity.sessions.signIn({ workspaceId: request.app.workspace!.id, email: payload.email, password: payload.password, totp: payload.totp, ip: ipOf(request), device });
        setSessionCookie(h, session);
        setDeviceCookie(h, identity.context.devices.issue(account.id));
        return single(request, await presentMe(dependencies, member.workspace_id, member.id, { kind: 'session', elevatedUntil: null }));
      },
    },
    {
      method: 'PUT',
      path: '/invitations/{token}',
      options: {
        auth: false,
        app: { answers: { single: ME } },
        validate: {
          params: Joi.object({ token: Joi.string().min(1).max(200).required() }),
          payload: Joi.object({ password: fields.password.required(), totp: Joi.string().trim().min(6).max(8), name: fields.name }),
        },
      },
      handler: async (request, h) => {
        const { token } = request.params as { token: string };
        const payload = request.payload as { password: string; totp?: string; name?: string };
        const checked = await identity.invitations.check(request.app.workspace!.id, token, payload.password, payload.totp, ipOf(request));
        const started: { session?: StartedSession } = {};
        const answer = await inTransaction(dependencies, request, h, async (work) => {
          const { member, account } = await identity.invitations.complete(checked, payload.name, work.stage, ipOf(request));
          started.session = await identity.sessions.start(member, account);
          return single(request, await presentMe(dependencies, member.workspace_id, member.id, { kind: 'session', elevatedUntil: null }));
        });
        if (started.session) setSessionCookie(h, started.session);
        return answer;
      },
    },
    {
      method: 'POST',
      path: '/password-resets',
      options: {
        auth: false,
        app: { wpk: { scope: 'any' }, answers: { single: NOTICE } },
        validate: { payload: Joi.object({ email: fields.email.required() }) },
      },
      handler: async (request) => {
        const { email } = request.payload as { email: string };
        const reset = await identity.passwordResets.request(email, request.app.workspace?.id ?? null);
        if (reset) {
          const link = `${linkBaseOf(request, config)}/password-resets/${reset.token}`;
          // Not awaited: the answer (and its timing) must not depend on whether the email exists.
          mailer
            .send({
              to: reset.account.email,
              subject: 'Reset your password',
              text: [
                `Hello ${reset.account.name},`,
                '',
                'To choose a new password, send it to this link (PUT, JSON body {"password": "..."}):',
                '',
                link,
                '',
                `The link works once, within ${PASSWORD_RESET_TTL_SECONDS / 60} minutes. Using it signs you out everywhere.`,
                'If you did not ask for this, ignore this mail: your password stays as it is.',
              ].join('\n'),
            })
            .catch((error: unknown) => logger.error({ err: error }, 'password-reset mail failed'));
        }
        return single(request, { message: RESET_ANSWER });
      },
    },
    {
      method: 'PUT',
      path: '/password-resets/{token}',
      options: {
        auth: false,
        app: { wpk: { scope: 'any' }, answers: { single: NOTICE } },
        validate: { params: Joi.object({ token: Joi.string().min(1).max(200).required() }), payload: Joi.object({ password: fields.password.required() }) },
      },
      handler: async (request, h) => {
        const { token } = request.params as { token: string };
        const { password } = request.payload as { password: string };
        const reset = await identity.passwordResets.check(token);
        const passwordHash = await identity.context.passwords.hash(password, { ip: ipOf(request) });
        return inTransaction(dependencies, request, h, async () => {
          await identity.passwordResets.complete(reset, passwordHash, request.app.workspace?.id ?? null, ipOf(request));
          return single(request, { message: 'Password changed; every session of this account has ended: sign in again' });
        });
      },
    },
  ];
}
