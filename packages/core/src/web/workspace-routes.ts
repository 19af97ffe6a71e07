import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { AppRegistry } from '../apps/index.js';
import { callApi, forwardCookies, ok, type ApiAnswer } from './api.js';
import { blankForm, formFromAnswer, formValues, safeNext, type FormState } from './forms.js';
import { fragment, page } from './views.js';

interface Me {
  member: { id: string; name: string; email: string; platform_role: string };
  workspace: { id: string; subdomain: string; name: string };
  platform_role: string;
  two_factor_enabled: boolean;
  elevated_until: string | null;
}

type Screen = (request: Request, h: ResponseToolkit, me: Me) => Promise<unknown>;

/** A workspace page: `/me` decides who is asking (signed out: 401, which becomes the sign-in redirect). */
function screen(render: Screen) {
  return async (request: Request, h: ResponseToolkit) => {
    const me = await callApi<{ data: Me }>(request, 'GET', '/me');
    if (!ok(me)) return refusal(h, me);
    return render(request, h, me.body.data);
  };
}

/** An API refusal, passed on as is: the page layer renders it as HTML, a 401 navigation as the sign-in redirect. */
function refusal(h: ResponseToolkit, answer: ApiAnswer) {
  return h.response({ error: answer.body.error ?? `The request failed (${answer.status})` }).code(answer.status);
}

const NOTICES: Record<string, string> = {
  invited: 'Invitation sent.',
  updated: 'Saved.',
  deactivated: 'Member deactivated.',
  revoked: 'Key revoked.',
  installed: 'App installed.',
  access: 'Access saved.',
  role: 'Role created.',
  elevated: 'Admin mode is on.',
};

function notice(request: Request): string | null {
  return NOTICES[String(request.query.done ?? '')] ?? null;
}

function pageOptions(kind: 'page' = 'page') {
  return { auth: false as const, app: { wpk: { kind, scope: 'workspace' as const } } };
}

/** The first `per_page` rows of a collection route, or the refusal. */
async function rows<T>(request: Request, url: string): Promise<{ rows: T[]; answer: ApiAnswer }> {
  const answer = await callApi<{ data: T[] }>(request, 'GET', url);
  return { rows: ok(answer) ? answer.body.data : [], answer };
}

/**
 * The workspace shell and its admin screens (`/admin/*`) with the `/partials/*` fragments they
 * are built from. Every read and every change goes through the JSON API route that does it
 * (see api.ts), so a screen enforces exactly the five layers the API does.
 */
export function workspaceRoutes(options: { apps: AppRegistry }): ServerRoute[] {
  const { apps } = options;

  /** The launcher: installed apps this member can open (the app status route's `can_open`, layer 4). */
  async function launcher(request: Request) {
    const tiles = [];
    for (const app of apps.list()) {
      const status = await callApi<{ data: { can_open: boolean; status: string } }>(request, 'GET', `/applications/${app.namespace}/status`);
      if (ok(status) && status.body.data.can_open) tiles.push({ slug: app.namespace, name: app.manifest.tile?.name ?? app.manifest.name, description: app.manifest.description ?? '' });
    }
    return tiles;
  }

  const membersView = async (request: Request) => {
    const members = await rows<Record<string, unknown>>(request, '/members?per_page=100');
    const roles = await rows<{ id: string; name: string }>(request, '/roles?per_page=100');
    return { members: members.rows, roles: roles.rows, answer: members.answer };
  };

  const renderMembers = async (request: Request, h: ResponseToolkit, me: Me, form: FormState = blankForm(), status = 200) => {
    const view = await membersView(request);
    if (!ok(view.answer)) return refusal(h, view.answer);
    return page(h, 'members', { title: 'Members', me, ...view, form, notice: notice(request), isAdmin: me.platform_role !== 'member' }, status);
  };

  const renderKeys = async (request: Request, h: ResponseToolkit, me: Me, extra: { form?: FormState; secret?: { name: string; value: string } } = {}, status = 200) => {
    const keys = await rows<Record<string, unknown>>(request, '/api-keys?per_page=100');
    if (!ok(keys.answer)) return refusal(h, keys.answer);
    return page(h, 'api-keys', { title: 'API keys', me, keys: keys.rows, form: extra.form ?? blankForm(), secret: extra.secret ?? null, notice: notice(request) }, status);
  };

  const renderApps = async (request: Request, h: ResponseToolkit, me: Me, form: FormState = blankForm(), status = 200) => {
    const list = [];
    for (const app of apps.list()) {
      const access = await callApi<{ data: Record<string, unknown> }>(request, 'GET', `/apps/${app.namespace}/access`);
      if (!ok(access)) return refusal(h, access);
      list.push({ slug: app.namespace, ...access.body.data });
    }
    return page(h, 'apps', { title: 'Apps', me, apps: list, form, notice: notice(request) }, status);
  };

  const back = (h: ResponseToolkit, location: string) => h.redirect(location).code(303);

  return [
    {
      method: 'GET',
      path: '/',
      options: { auth: false, app: { wpk: { kind: 'page', scope: 'any' } } },
      handler: async (request, h) => {
        if (!request.app.workspace) return page(h, 'home', { title: 'Home', form: blankForm() });
        return screen(async (_request, h, me) => page(h, 'launcher', { title: 'Home', me, tiles: await launcher(request), notice: notice(request) }))(request, h);
      },
    },
    { method: 'GET', path: '/admin/members', options: pageOptions(), handler: screen((request, h, me) => renderMembers(request, h, me)) },
    {
      method: 'GET',
      path: '/partials/members',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const view = await membersView(request);
        return ok(view.answer) ? fragment(h, 'partials/member-rows', { ...view, me, isAdmin: me.platform_role !== 'member' }) : refusal(h, view.answer);
      }),
    },
    {
      method: 'GET',
      path: '/workspaces/{id}/partials/members',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        if (request.params.id !== me.workspace.id) return h.response({ error: 'You are not a member of this workspace' }).code(403);
        const view = await membersView(request);
        return ok(view.answer) ? fragment(h, 'partials/member-rows', { ...view, me, isAdmin: me.platform_role !== 'member' }) : refusal(h, view.answer);
      }),
    },
    {
      method: 'POST',
      path: '/admin/members/invite',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const values = formValues(request.payload, ['email', 'platform_role']);
        const answer = await callApi(request, 'POST', '/invitations', { email: values.email ?? '', platform_role: values.platform_role ?? 'member' });
        if (ok(answer)) return back(h, '/admin/members?done=invited');
        return renderMembers(request, h, me, formFromAnswer(answer, ['email', 'platform_role'], values), answer.status);
      }),
    },
    {
      method: 'POST',
      path: '/admin/members/{member_id}/role',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const values = formValues(request.payload, ['platform_role']);
        const answer = await callApi(request, 'PATCH', `/members/${encodeURIComponent(String(request.params.member_id))}`, { platform_role: values.platform_role ?? '' });
        if (ok(answer)) return back(h, '/admin/members?done=updated');
        return renderMembers(request, h, me, { values: {}, errors: {}, error: answer.body.error ?? 'The change failed' }, answer.status);
      }),
    },
    {
      method: 'POST',
      path: '/admin/members/{member_id}/deactivate',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const answer = await callApi(request, 'DELETE', `/members/${encodeURIComponent(String(request.params.member_id))}`);
        if (ok(answer)) return back(h, '/admin/members?done=deactivated');
        return renderMembers(request, h, me, { values: {}, errors: {}, error: answer.body.error ?? 'The change failed' }, answer.status);
      }),
    },
    {
      method: 'GET',
      path: '/admin/roles',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const roles = await rows<Record<string, unknown>>(request, '/roles?per_page=100');
        return ok(roles.answer) ? page(h, 'roles', { title: 'Roles', me, roles: roles.rows, form: blankForm(), notice: notice(request) }) : refusal(h, roles.answer);
      }),
    },
    {
      method: 'POST',
      path: '/admin/roles',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const values = formValues(request.payload, ['name', 'permissions']);
        const permissions = (values.permissions ?? '').split(/[\s,]+/).filter(Boolean);
        const answer = await callApi(request, 'POST', '/roles', { name: values.name ?? '', permissions });
        if (ok(answer)) return back(h, '/admin/roles?done=role');
        const roles = await rows<Record<string, unknown>>(request, '/roles?per_page=100');
        return page(h, 'roles', { title: 'Roles', me, roles: roles.rows, form: formFromAnswer(answer, ['name', 'permissions'], values) }, answer.status);
      }),
    },
    { method: 'GET', path: '/admin/apps', options: pageOptions(), handler: screen((request, h, me) => renderApps(request, h, me)) },
    {
      method: 'POST',
      path: '/admin/apps/{slug}/install',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const answer = await callApi(request, 'POST', `/applications/${encodeURIComponent(String(request.params.slug))}/installations`, {});
        if (ok(answer)) return back(h, '/admin/apps?done=installed');
        return renderApps(request, h, me, { values: {}, errors: {}, error: answer.body.error ?? 'Installing failed' }, answer.status);
      }),
    },
    {
      method: 'POST',
      path: '/admin/apps/{slug}/access',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const payload = (request.payload ?? {}) as Record<string, unknown>;
        const roles = payload.allowed_roles === undefined ? [] : Array.isArray(payload.allowed_roles) ? payload.allowed_roles : [payload.allowed_roles];
        const answer = await callApi(request, 'PUT', `/applications/${encodeURIComponent(String(request.params.slug))}/access`, { access_policy: String(payload.access_policy ?? ''), allowed_roles: roles.map(String) });
        if (ok(answer)) return back(h, '/admin/apps?done=access');
        return renderApps(request, h, me, { values: {}, errors: {}, error: answer.body.error ?? 'Saving failed' }, answer.status);
      }),
    },
    { method: 'GET', path: '/admin/api-keys', options: pageOptions(), handler: screen((request, h, me) => renderKeys(request, h, me)) },
    {
      method: 'GET',
      path: '/partials/api-keys',
      options: pageOptions(),
      handler: screen(async (request, h) => {
        const keys = await rows<Record<string, unknown>>(request, '/api-keys?per_page=100');
        return ok(keys.answer) ? fragment(h, 'partials/key-rows', { keys: keys.rows }) : refusal(h, keys.answer);
      }),
    },
    {
      method: 'POST',
      path: '/admin/api-keys',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const values = formValues(request.payload, ['name']);
        const answer = await callApi<{ data: { name: string; secret: string } }>(request, 'POST', '/api-keys', { name: values.name ?? '', full_access: true });
        // The secret is shown on this one answer only (no-store), never again.
        if (ok(answer)) return renderKeys(request, h, me, { secret: { name: answer.body.data.name, value: answer.body.data.secret } });
        return renderKeys(request, h, me, { form: formFromAnswer(answer, ['name'], values) }, answer.status);
      }),
    },
    {
      method: 'POST',
      path: '/admin/api-keys/{key_id}/rotate',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const answer = await callApi<{ data: { name: string; secret: string } }>(request, 'PUT', `/api-keys/${encodeURIComponent(String(request.params.key_id))}/secret`, {});
        if (ok(answer)) return renderKeys(request, h, me, { secret: { name: answer.body.data.name, value: answer.body.data.secret } });
        return renderKeys(request, h, me, { form: { values: {}, errors: {}, error: answer.body.error ?? 'Rotating failed' } }, answer.status);
      }),
    },
    {
      method: 'POST',
      path: '/admin/api-keys/{key_id}/revoke',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const answer = await callApi(request, 'DELETE', `/api-keys/${encodeURIComponent(String(request.params.key_id))}`);
        if (ok(answer)) return back(h, '/admin/api-keys?done=revoked');
        return renderKeys(request, h, me, { form: { values: {}, errors: {}, error: answer.body.error ?? 'Revoking failed' } }, answer.status);
      }),
    },
    {
      method: 'GET',
      path: '/admin/activity',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const activity = await rows<Record<string, unknown>>(request, '/activity?per_page=50');
        if (!ok(activity.answer)) return refusal(h, activity.answer);
        // The admin audit is for owners and admins; a member's screen simply has no such section.
        const audit = me.platform_role === 'member' ? null : await rows<Record<string, unknown>>(request, '/admin-audit?per_page=50');
        return page(h, 'activity', { title: 'Activity', me, activity: activity.rows, audit: audit && ok(audit.answer) ? audit.rows : null });
      }),
    },
    {
      method: 'GET',
      path: '/partials/audit',
      options: pageOptions(),
      handler: screen(async (request, h) => {
        const audit = await rows<Record<string, unknown>>(request, '/admin-audit?per_page=50');
        return ok(audit.answer) ? fragment(h, 'partials/audit-rows', { audit: audit.rows }) : refusal(h, audit.answer);
      }),
    },
    {
      method: 'GET',
      path: '/partials/activity',
      options: pageOptions(),
      handler: screen(async (request, h) => {
        const activity = await rows<Record<string, unknown>>(request, '/activity?per_page=50');
        return ok(activity.answer) ? fragment(h, 'partials/activity-rows', { activity: activity.rows }) : refusal(h, activity.answer);
      }),
    },
    {
      method: 'GET',
      path: '/admin/settings',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const workspace = await callApi<{ data: Record<string, unknown> }>(request, 'GET', `/workspaces/${me.workspace.id}`);
        return ok(workspace) ? page(h, 'settings', { title: 'Settings', me, details: workspace.body.data }) : refusal(h, workspace);
      }),
    },
    {
      method: 'GET',
      path: '/admin-mode',
      options: pageOptions(),
      handler: screen(async (request, h, me) => page(h, 'elevate', { title: 'Admin mode', me, form: blankForm(), next: safeNext(request.query.next), twoFactor: me.two_factor_enabled })),
    },
    {
      method: 'POST',
      path: '/admin-mode',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const values = formValues(request.payload, ['reason', 'password', 'totp', 'next']);
        const answer = await callApi(request, 'POST', '/elevations', { reason: values.reason ?? '', ...(values.password ? { password: values.password } : {}), ...(values.totp ? { totp: values.totp } : {}) });
        const next = safeNext(values.next);
        if (ok(answer)) return forwardCookies(h.redirect(next === '/' ? '/?done=elevated' : next).code(303), answer);
        return page(h, 'elevate', { title: 'Admin mode', me, form: formFromAnswer(answer, ['reason', 'password', 'totp'], values), next, twoFactor: me.two_factor_enabled }, answer.status);
      }),
    },
  ];
}
