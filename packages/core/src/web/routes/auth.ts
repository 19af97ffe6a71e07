import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { WorkspaceService } from '../../tenancy/index.js';
import { publicOrigin } from '../../tenancy/index.js';
import { callApi, forwardCookies, ok } from '../api.js';
import { blankForm, formFromAnswer, formValues, safeNext } from '../forms.js';
import { page } from '../views.js';

const TWO_FACTOR_MISSING = /^Two-factor authentication is on/;

/** A page route's options: no auth of its own (the API it calls judges the session), HTML kind. */
function pageOptions(scope: 'workspace' | 'platform' | 'any') {
  return { auth: false as const, app: { wpk: { kind: 'page' as const, scope } } };
}

/** A 303 to `location`, carrying the cookies the API answer set. */
function seeOther(h: ResponseToolkit, location: string, answer?: Parameters<typeof forwardCookies>[1]) {
  const response = h.redirect(location).code(303);
  return answer ? forwardCookies(response, answer) : response;
}

/**
 * The sign-in, sign-up and recovery pages. Each form posts back to a page route, which calls the
 * JSON API route of the same flow (`POST /sessions`, `POST /signup`, `POST /verifications`,
 * `PUT /invitations/{token}`, `POST|PUT /password-resets`, `POST /elevations`, `DELETE /sessions`)
 * and shows its refusal beside the field it names, or follows on with a 303.
 */
export function authRoutes(options: { publicUrl: string; workspaces: WorkspaceService; sharedCookie: boolean }): ServerRoute[] {
  const { publicUrl, workspaces } = options;
  const workspaceUrl = (subdomain: string) => publicOrigin(publicUrl, subdomain);

  const loginPage = (request: Request, h: ResponseToolkit) => {
    const next = safeNext(request.query.next);
    if (!request.app.workspace) return page(h, 'login-choose', { title: 'Sign in', form: blankForm(), next });
    return page(h, 'login', { title: 'Sign in', form: blankForm(), next, welcome: request.query.welcome === '1' });
  };

  return [
    { method: 'GET', path: '/login', options: pageOptions('any'), handler: loginPage },
    {
      method: 'POST',
      path: '/login',
      options: pageOptions('any'),
      handler: async (request, h) => {
        const values = formValues(request.payload, ['subdomain', 'email', 'password', 'totp', 'next']);
        const next = safeNext(values.next);
        if (!request.app.workspace) {
          // The base domain only asks which workspace: sessions belong to one workspace.
          const subdomain = (values.subdomain ?? '').trim().toLowerCase();
          const workspace = subdomain ? await workspaces.findBySubdomain(subdomain) : null;
          if (!workspace) {
            const message = subdomain ? `No workspace at ${subdomain}` : 'subdomain is required';
            return page(h, 'login-choose', { title: 'Sign in', form: { values, errors: { subdomain: message }, error: null }, next }, subdomain ? 404 : 400);
          }
          return seeOther(h, `${workspaceUrl(workspace.subdomain)}/login${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}`);
        }
        const answer = await callApi(request, 'POST', '/sessions', { email: values.email ?? '', password: values.password ?? '', ...(values.totp ? { totp: values.totp } : {}) });
        if (ok(answer)) return seeOther(h, next, answer);
        const form = formFromAnswer(answer, ['email', 'password', 'totp'], values);
        const totpStep = TWO_FACTOR_MISSING.test(answer.body.error ?? '') || (values.totp !== undefined && answer.status === 401);
        if (totpStep && TWO_FACTOR_MISSING.test(answer.body.error ?? '')) form.error = null;
        if (totpStep) form.values.email = values.email ?? '';
        return page(h, 'login', { title: 'Sign in', form, next, totpStep }, answer.status);
      },
    },
    { method: 'GET', path: '/logout', options: pageOptions('workspace'), handler: (_request, h) => page(h, 'logout', { title: 'Sign out' }) },
    {
      method: 'POST',
      path: '/logout',
      options: pageOptions('workspace'),
      handler: async (request, h) => {
        const answer = await callApi(request, 'DELETE', '/sessions');
        // Signed out already (no or a dead session): the sign-in page either way.
        return seeOther(h, '/login', answer);
      },
    },
    { method: 'GET', path: '/signup', options: pageOptions('platform'), handler: (_request, h) => page(h, 'signup', { title: 'Sign up', form: blankForm() }) },
    {
      method: 'POST',
      // POST /signup is the JSON API's; the form posts here.
      path: '/signup/send-code',
      options: pageOptions('platform'),
      handler: async (request, h) => {
        const values = formValues(request.payload, ['name', 'email', 'workspace_name', 'subdomain']);
        const answer = await callApi(request, 'POST', '/signup', values);
        if (ok(answer)) return seeOther(h, `/verify?email=${encodeURIComponent((answer.body as { data: { email: string } }).data.email)}`);
        return page(h, 'signup', { title: 'Sign up', form: formFromAnswer(answer, ['name', 'email', 'workspace_name', 'subdomain'], values) }, answer.status);
      },
    },
    {
      method: 'GET',
      path: '/verify',
      options: pageOptions('platform'),
      handler: (request, h) => page(h, 'verify', { title: 'Verify', form: blankForm(), email: typeof request.query.email === 'string' ? request.query.email.slice(0, 254) : null }),
    },
    {
      method: 'POST',
      path: '/verify',
      options: pageOptions('platform'),
      handler: async (request, h) => {
        const values = formValues(request.payload, ['code', 'password']);
        const answer = await callApi<{ data: { workspace: { subdomain: string } } }>(request, 'POST', '/verifications', { code: values.code ?? '', password: values.password ?? '' });
        // The new session is the base domain's; only a cookie domain with a dot (COOKIE_DOMAIN)
        // carries it to the workspace's subdomain. Else (`localhost`) the person signs in there once.
        if (ok(answer)) return seeOther(h, `${workspaceUrl(answer.body.data.workspace.subdomain)}/${options.sharedCookie ? '' : 'login?welcome=1'}`, answer);
        return page(h, 'verify', { title: 'Verify', form: formFromAnswer(answer, ['code', 'password'], values) }, answer.status);
      },
    },
    {
      method: 'GET',
      path: '/invitations/{token}',
      options: pageOptions('workspace'),
      handler: (request, h) => page(h, 'invitation', { title: 'Join', form: blankForm(), token: request.params.token }),
    },
    {
      method: 'POST',
      path: '/invitations/{token}',
      options: pageOptions('workspace'),
      handler: async (request, h) => {
        const values = formValues(request.payload, ['name', 'password', 'totp']);
        const token = String(request.params.token);
        const answer = await callApi(request, 'PUT', `/invitations/${encodeURIComponent(token)}`, { password: values.password ?? '', ...(values.name ? { name: values.name } : {}), ...(values.totp ? { totp: values.totp } : {}) });
        if (ok(answer)) return seeOther(h, '/', answer);
        return page(h, 'invitation', { title: 'Join', form: formFromAnswer(answer, ['name', 'password', 'totp'], values), token }, answer.status);
      },
    },
    { method: 'GET', path: '/reset-password', options: pageOptions('any'), handler: (_request, h) => page(h, 'reset-request', { title: 'Reset your password', form: blankForm() }) },
    {
      method: 'POST',
      path: '/reset-password',
      options: pageOptions('any'),
      handler: async (request, h) => {
        const values = formValues(request.payload, ['email']);
        const answer = await callApi<{ data: { message: string } }>(request, 'POST', '/password-resets', { email: values.email ?? '' });
        if (ok(answer)) return page(h, 'reset-request', { title: 'Reset your password', form: blankForm(), sent: answer.body.data.message });
        return page(h, 'reset-request', { title: 'Reset your password', form: formFromAnswer(answer, ['email'], values) }, answer.status);
      },
    },
    {
      method: 'GET',
      path: '/password-resets/{token}',
      options: pageOptions('any'),
      handler: (request, h) => page(h, 'reset-use', { title: 'Choose a new password', form: blankForm(), token: request.params.token }),
    },
    {
      method: 'POST',
      path: '/password-resets/{token}',
      options: pageOptions('any'),
      handler: async (request, h) => {
        const values = formValues(request.payload, ['password']);
        const token = String(request.params.token);
        const answer = await callApi(request, 'PUT', `/password-resets/${encodeURIComponent(token)}`, { password: values.password ?? '' });
        if (ok(answer)) return seeOther(h, '/login?reset=1');
        return page(h, 'reset-use', { title: 'Choose a new password', form: formFromAnswer(answer, ['password'], values), token }, answer.status);
      },
    },
  ];
}
