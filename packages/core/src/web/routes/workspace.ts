import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { AppRegistry } from '../../apps/index.js';
import { callApi, forwardCookies, ok } from '../api.js';
import { blankForm, formFromAnswer, formValues, safeNext, type FormState } from '../forms.js';
import { back, denied, formError, notice, pageOptions, refusal, rows, screen, type Me } from '../screen.js';
import { fragment, page } from '../views.js';
import type { AppFrontEnds } from '../app-files.js';
import { formatAmount, parseAmount } from '../../billing/index.js';

/** The parts of `GET /plan` the usage meter (`/partials/microns`) shows. */
interface PlanAnswer {
  plan: string;
  billing_interval: 'monthly' | 'annual';
  currency: string;
  seats: number;
  seats_paid: number | null;
  next_run_at: string | null;
  loop: 'monthly' | 'usage' | null;
  billing_status: 'current' | 'past_due';
  past_due_since: string | null;
  metered: { since: string; amount: string; lines: Array<{ app: string; meter: string; microns: number; amount: string }> };
  plans: Array<{ id: string; name: string; seat_price: { monthly: string; annual: string } }>;
}

/**
 * The usage meter: the billable units of the current period (seats) and what the next billing
 * run charges for them, by the rules of docs/billing.md: the usage loop bills the seats beyond
 * those paid for the year at the monthly price; the monthly loop bills the next month of seats.
 * Then the apps' metered usage not billed yet (this month's: since the last run), per app and
 * meter, in microns and the amount the next run bills for it.
 */
function usageMeter(plan: PlanAnswer) {
  const definition = plan.plans.find((candidate) => candidate.id === plan.plan);
  const monthly = definition ? parseAmount(definition.seat_price.monthly) : 0n;
  const price = definition ? parseAmount(definition.seat_price[plan.billing_interval]) : 0n;
  const rows: Array<{ label: string; units: number | string; unit_price: string | null; amount: string | null }> = [{ label: 'Seats in use', units: plan.seats, unit_price: null, amount: null }];
  if (plan.seats_paid !== null) rows.push({ label: 'Seats paid for this period', units: plan.seats_paid, unit_price: null, amount: null });
  if (plan.loop === 'usage') {
    const extra = Math.max(0, plan.seats - (plan.seats_paid ?? 0));
    rows.push({ label: 'Seats beyond those paid (billed at the next run)', units: extra, unit_price: formatAmount(monthly), amount: formatAmount(monthly * BigInt(extra)) });
  } else if (plan.loop === 'monthly') {
    rows.push({ label: `Next ${plan.billing_interval} period of seats (billed at the next run)`, units: plan.seats, unit_price: formatAmount(price), amount: formatAmount(price * BigInt(plan.seats)) });
  }
  const since = plan.metered.since.slice(0, 10);
  for (const line of plan.metered.lines) rows.push({ label: `Metered: ${line.app} ${line.meter} (since ${since}, billed at the next run)`, units: `${line.microns} microns`, unit_price: null, amount: line.amount });
  return { plan: definition?.name ?? plan.plan, billing_interval: plan.billing_interval, currency: plan.currency, next_run_at: plan.next_run_at, past_due: plan.billing_status === 'past_due', past_due_since: plan.past_due_since, rows };
}

/** The parts of `GET /apps/{slug}/access` the Apps screen shows. */
interface AppAccess {
  app: { slug: string; name: string; version: string | null; meters: Array<{ name: string; description: string }> };
  tile_access: { installed: boolean; access_policy: string | null };
  permission_matrix: { permissions: Array<{ key: string; label: string; category: string }>; roles: Array<{ id: string; name: string; can_open: boolean; wildcard: boolean; permissions: string[] }> };
  config: { schema: SettingsSchema | null; document: Record<string, unknown> | null };
}

interface SettingsSchema {
  properties?: Record<string, { type?: string; title?: string; description?: string }>;
  required?: string[];
}

/** A per-app form that the API refused: shown again with the values sent and the error beside its field. */
interface FailedAppForm {
  slug: string;
  kind: 'permissions' | 'settings';
  roleId?: string;
  error: string;
  checked?: string[];
  values?: Record<string, string>;
}

/** One input of an app's settings form, from a top-level property of its settings schema. */
interface SettingsField {
  name: string;
  label: string;
  type: 'text' | 'number' | 'checkbox';
  jsonType: string;
  value: string;
  checked: boolean;
  required: boolean;
  error: string | null;
}

/**
 * The settings form of an app: one input per top-level property of its schema that is a string,
 * number, integer or boolean (an app with nested settings has them edited through the API).
 */
function settingsFields(schema: SettingsSchema | null, document: Record<string, unknown>): SettingsField[] {
  return Object.entries(schema?.properties ?? {})
    .filter(([, property]) => ['string', 'number', 'integer', 'boolean'].includes(String(property.type)))
    .map(([name, property]) => ({
      name,
      label: property.title ?? name.replace(/_/g, ' '),
      type: property.type === 'boolean' ? 'checkbox' : property.type === 'string' ? 'text' : 'number',
      jsonType: String(property.type),
      value: document[name] === undefined || document[name] === null ? '' : String(document[name]),
      checked: document[name] === true,
      required: (schema?.required ?? []).includes(name),
      error: null,
    }));
}

/**
 * The settings document a form's values make: numbers become numbers (a non-number is sent as
 * typed, so the schema refuses it by name), a box is true or false, an empty field is left out.
 */
function settingsDocument(fields: SettingsField[], values: Record<string, string>): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.type === 'checkbox') document[field.name] = value !== undefined;
    else if (value === undefined || value.trim() === '') continue;
    else if (field.type === 'number' && value.trim() !== '' && Number.isFinite(Number(value))) document[field.name] = Number(value);
    else document[field.name] = value;
  }
  return document;
}

/** Puts each `field: message` part of a settings refusal beside its field; the rest is the form's error. */
function settingsErrors(fields: SettingsField[], message: string): string | null {
  const rest: string[] = [];
  for (const part of message.split('; ')) {
    const field = fields.find((candidate) => part.startsWith(`${candidate.name}: `) || part.startsWith(`${candidate.name} `) || part.includes(`'${candidate.name}'`));
    if (field) field.error ??= part;
    else rest.push(part);
  }
  return rest.length > 0 ? rest.join('; ') : null;
}

/** One app of the Apps screen: access, the permission matrix with a form per role, and the settings form. */
function appView(slug: string, access: AppAccess, failed?: FailedAppForm) {
  const fields = settingsFields(access.config.schema, access.config.document ?? {});
  let settingsError: string | null = null;
  if (failed?.kind === 'settings') {
    for (const field of fields) {
      field.value = failed.values?.[field.name] ?? '';
      field.checked = failed.values?.[field.name] !== undefined;
    }
    settingsError = settingsErrors(fields, failed.error);
  }
  const roles = access.permission_matrix.roles.map((role) => {
    const refused = failed?.kind === 'permissions' && failed.roleId === role.id;
    const held = refused ? (failed.checked ?? []) : role.permissions;
    return {
      ...role,
      error: refused ? failed.error : null,
      boxes: access.permission_matrix.permissions.map((permission) => ({ ...permission, checked: held.includes(permission.key) })),
    };
  });
  return { slug, ...access, roles, settings: { fields, error: settingsError } };
}

/** The member filter a query asks for; anything unknown is dropped (the page stays usable). */
function memberFilter(query: Record<string, unknown>): Record<string, string> {
  const filter: Record<string, string> = {};
  if (query.state === 'invited' || query.state === 'joined') filter.state = query.state;
  if (typeof query.per_page === 'string' && /^[1-9][0-9]?$/.test(query.per_page)) filter.per_page = query.per_page;
  if (typeof query.page === 'string' && /^[1-9][0-9]{0,5}$/.test(query.page)) filter.page = query.page;
  return filter;
}

/**
 * A role's permissions as the API takes them, `{namespace: [keys]}`: each key under the app whose
 * namespace opens it (the longest, for nested namespaces); a key of no app goes under its first
 * segment, for the API to refuse by name.
 */
function bySlice(apps: AppRegistry, keys: string[]): Record<string, string[]> {
  const namespaces = apps.list().map((app) => app.namespace).sort((a, b) => b.length - a.length);
  const slices: Record<string, string[]> = {};
  for (const key of keys) {
    const namespace = namespaces.find((candidate) => key.startsWith(`${candidate}.`)) ?? key.split('.')[0];
    (slices[namespace] ??= []).push(key);
  }
  return slices;
}

/**
 * The workspace shell and its admin screens (`/admin/*`) with the `/partials/*` fragments they
 * are built from. Every read and every change goes through the JSON API route that does it
 * (see api.ts), so a screen enforces exactly the five layers the API does.
 */
export function workspaceRoutes(options: { apps: AppRegistry; frontEnds: AppFrontEnds }): ServerRoute[] {
  const { apps, frontEnds } = options;

  /**
   * The launcher: installed apps this member can open (the app status route's `can_open`,
   * layer 4), and the others with what the member may ask for: access to an installed app whose
   * policy is not "everyone", or the installation of one that is not installed.
   */
  async function launcher(request: Request) {
    const tiles = [];
    const others = [];
    for (const app of apps.list()) {
      const status = await callApi<{ data: { can_open: boolean; installed: boolean; access_policy: string | null } }>(request, 'GET', `/applications/${app.namespace}/status`);
      if (!ok(status)) continue;
      const name = app.manifest.tile?.name ?? app.manifest.name;
      if (status.body.data.can_open) tiles.push({ slug: app.namespace, name, description: app.manifest.description ?? '', href: `/app/${app.namespace}/` });
      else others.push({ slug: app.namespace, name, installed: status.body.data.installed, askAccess: status.body.data.installed && status.body.data.access_policy !== 'everyone' });
    }
    return { tiles, others };
  }

  /**
   * The member list as the filter (`state`) and page in the query ask: the page and its
   * fragment take the same query, so a pager link works as a plain link and as a partial swap.
   */
  const membersView = async (request: Request) => {
    const filter = memberFilter(request.query);
    const members = await callApi<{ data: Array<Record<string, unknown>>; pagination: { page: number; pages: number; total: number } }>(request, 'GET', `/members?${new URLSearchParams({ ...filter, per_page: filter.per_page ?? '25' }).toString()}`);
    const roles = await rows<{ id: string; name: string }>(request, '/roles?per_page=100');
    if (!ok(members)) return { members: [], roles: [], answer: members, filter, pager: null };
    const { page: current, pages, total } = members.body.pagination;
    const partialPath = request.path.includes('/partials/') ? request.path : '/partials/members';
    const link = (target: number) => {
      const query = new URLSearchParams({ ...filter, page: String(target) }).toString();
      return { page: `/admin/members?${query}`, partial: `${partialPath}?${query}` };
    };
    const pager = { current, pages: Math.max(1, pages), total, prev: current > 1 ? link(current - 1) : null, next: current < pages ? link(current + 1) : null };
    return { members: members.body.data, roles: roles.rows, answer: members, filter, pager };
  };

  const renderMembers = async (request: Request, h: ResponseToolkit, me: Me, form: FormState = blankForm(), status = 200) => {
    const view = await membersView(request);
    if (!ok(view.answer)) return refusal(h, view.answer);
    return page(h, 'members', { title: 'Members', me, ...view, form, notice: notice(request), isAdmin: me.platform_role !== 'member' }, status);
  };

  /** The scopes a key may be given: the platform's `account.*` keys and those of each installed app, by app. */
  const scopeGroups = async (request: Request, checked: string[]) => {
    const groups = [];
    for (const slug of ['account', ...apps.list().map((app) => app.namespace)]) {
      const access = await callApi<{ data: AppAccess }>(request, 'GET', `/apps/${slug}/access`);
      if (!ok(access) || !access.body.data.tile_access.installed) continue;
      groups.push({ slug, name: access.body.data.app.name, scopes: access.body.data.permission_matrix.permissions.map((permission) => ({ ...permission, checked: checked.includes(permission.key) })) });
    }
    return groups;
  };

  const renderKeys = async (request: Request, h: ResponseToolkit, me: Me, extra: { form?: FormState; secret?: { name: string; value: string }; checked?: string[] } = {}, status = 200) => {
    const keys = await rows<Record<string, unknown>>(request, '/api-keys?per_page=100');
    if (!ok(keys.answer)) return refusal(h, keys.answer);
    const form = extra.form ?? blankForm();
    return page(h, 'api-keys', { title: 'API keys', me, keys: keys.rows, form, scopeGroups: await scopeGroups(request, extra.checked ?? []), secret: extra.secret ?? null, notice: notice(request) }, status);
  };

  /** The Apps screen; `failed` is a per-app form that was refused, shown again with its errors. */
  const renderApps = async (request: Request, h: ResponseToolkit, me: Me, form: FormState = blankForm(), status = 200, failed?: FailedAppForm) => {
    const list = [];
    for (const app of apps.list()) {
      const access = await callApi<{ data: AppAccess }>(request, 'GET', `/apps/${app.namespace}/access`);
      if (!ok(access)) return refusal(h, access);
      list.push(appView(app.namespace, access.body.data, failed?.slug === app.namespace ? failed : undefined));
    }
    return page(h, 'apps', { title: 'Apps', me, apps: list, form, notice: notice(request) }, status);
  };

  return [
    {
      method: 'GET',
      path: '/',
      options: { auth: false, app: { wpk: { kind: 'page', scope: 'any' } } },
      handler: async (request, h) => {
        if (!request.app.workspace) return page(h, 'home', { title: 'Home', form: blankForm() });
        return screen(async (_request, h, me) => page(h, 'launcher', { title: 'Home', me, ...(await launcher(request)), form: blankForm(), notice: notice(request) }))(request, h);
      },
    },
    {
      // The workspace shell hosting an app (docs/ui.md): the top bar, and the app's front-end in a
      // sandboxed frame that talks to the shell through the bridge. The rest of the path is the
      // app's own (deep links: /app/tasks/boards/42), handed to the frame when the bridge opens.
      method: 'GET',
      path: '/app/{slug}/{path*}',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const slug = String(request.params.slug);
        const app = apps.list().find((candidate) => candidate.namespace === slug);
        if (!app) return h.response({ error: `No app ${slug.slice(0, 100)}` }).code(404);
        const status = await callApi<{ data: { can_open: boolean } }>(request, 'GET', `/applications/${encodeURIComponent(slug)}/status`);
        if (!ok(status)) return refusal(h, status);
        if (!status.body.data.can_open) return h.response({ error: "You don't have access to this app" }).code(403);
        const rest = String(request.params.path ?? '');
        const first = rest.split('/')[0];
        const query = request.url.search;
        // A page that needs the workspace's own origin (a call's camera) opens outside the frame.
        if (app.firstParty && (app.manifest.same_origin_pages ?? []).includes(first)) return h.redirect(`/public/apps/${slug}/${first}${query}`).code(302);
        const name = app.manifest.tile?.name ?? app.manifest.name;
        const frameSrc = first.endsWith('.html') ? `/public/apps/${slug}/${first}${query}` : frontEnds.has(app) ? `/public/apps/${slug}/` : null;
        return page(h, 'app-shell', { title: name, me, app: { slug, name, description: app.manifest.description ?? '' }, frameSrc, fullBleed: true });
      }),
    },
    {
      // The app switcher's list (the shell loads it when the switcher opens): the apps this member can open.
      method: 'GET',
      path: '/partials/apps',
      options: pageOptions(),
      handler: screen(async (request, h) => fragment(h, 'partials/app-switcher', { tiles: (await launcher(request)).tiles })),
    },
    { method: 'GET', path: '/admin/members', options: pageOptions(), handler: screen((request, h, me) => renderMembers(request, h, me)) },
    {
      method: 'POST',
      path: '/launcher/{slug}/request',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const slug = encodeURIComponent(String(request.params.slug));
        const values = formValues(request.payload, ['kind', 'message']);
        // Access to an installed app (with a note for the admins), or the installation of one.
        const answer = values.kind === 'install' ? await callApi(request, 'POST', `/applications/${slug}/requests`) : await callApi(request, 'POST', `/applications/${slug}/access-requests`, { message: values.message ?? '' });
        if (ok(answer)) return back(h, `/?done=${values.kind === 'install' ? 'install-requested' : 'access-requested'}`);
        if (denied(answer)) return refusal(h, answer);
        const form = { ...formFromAnswer(answer, ['message'], values), slug: String(request.params.slug) };
        return page(h, 'launcher', { title: 'Home', me, ...(await launcher(request)), form }, answer.status);
      }),
    },
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
        if (denied(answer)) return refusal(h, answer);
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
        if (denied(answer)) return refusal(h, answer);
        return renderMembers(request, h, me, formError(answer, 'The change failed'), answer.status);
      }),
    },
    {
      method: 'POST',
      path: '/admin/members/{member_id}/deactivate',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const answer = await callApi(request, 'DELETE', `/members/${encodeURIComponent(String(request.params.member_id))}`);
        if (ok(answer)) return back(h, '/admin/members?done=deactivated');
        if (denied(answer)) return refusal(h, answer);
        return renderMembers(request, h, me, formError(answer, 'The change failed'), answer.status);
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
        const answer = await callApi(request, 'POST', '/roles', { name: values.name ?? '', permissions: bySlice(apps, (values.permissions ?? '').split(/[\s,]+/).filter(Boolean)) });
        if (ok(answer)) return back(h, '/admin/roles?done=role');
        if (denied(answer)) return refusal(h, answer);
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
        if (denied(answer)) return refusal(h, answer);
        return renderApps(request, h, me, formError(answer, 'Installing failed'), answer.status);
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
        if (denied(answer)) return refusal(h, answer);
        return renderApps(request, h, me, formError(answer, 'Saving failed'), answer.status);
      }),
    },
    {
      method: 'POST',
      path: '/admin/apps/{slug}/roles/{role_id}/permissions',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const slug = String(request.params.slug);
        const roleId = String(request.params.role_id);
        const payload = (request.payload ?? {}) as Record<string, unknown>;
        const keys = payload.permissions === undefined ? [] : Array.isArray(payload.permissions) ? payload.permissions.map(String) : [String(payload.permissions)];
        const answer = await callApi(request, 'PUT', `/apps/${encodeURIComponent(slug)}/roles/${encodeURIComponent(roleId)}/permissions`, { permissions: keys });
        if (ok(answer)) return back(h, `/admin/apps?done=permissions#app-${slug}`);
        if (denied(answer)) return refusal(h, answer);
        return renderApps(request, h, me, blankForm(), answer.status, { slug, kind: 'permissions', roleId, error: answer.body.error ?? 'Saving failed', checked: keys });
      }),
    },
    {
      method: 'POST',
      path: '/admin/apps/{slug}/settings',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const slug = String(request.params.slug);
        const access = await callApi<{ data: AppAccess }>(request, 'GET', `/apps/${encodeURIComponent(slug)}/access`);
        if (!ok(access)) return refusal(h, access);
        const fields = settingsFields(access.body.data.config.schema, {});
        const values = formValues(request.payload, fields.map((field) => field.name));
        const answer = await callApi(request, 'PUT', `/apps/${encodeURIComponent(slug)}/settings`, settingsDocument(fields, values));
        if (ok(answer)) return back(h, `/admin/apps?done=settings#app-${slug}`);
        if (denied(answer)) return refusal(h, answer);
        return renderApps(request, h, me, blankForm(), answer.status, { slug, kind: 'settings', error: answer.body.error ?? 'Saving failed', values });
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
      // The workspace's invoices (owner only, as GET /invoices): number, period, kind, amount, status.
      method: 'GET',
      path: '/partials/invoices',
      options: pageOptions(),
      handler: screen(async (request, h) => {
        const invoices = await rows<Record<string, unknown>>(request, '/invoices?per_page=50');
        return ok(invoices.answer) ? fragment(h, 'partials/invoice-rows', { invoices: invoices.rows }) : refusal(h, invoices.answer);
      }),
    },
    {
      // The workspaces of the signed-in account (the switcher): name, address, role; this one marked.
      method: 'GET',
      path: '/partials/workspaces',
      options: pageOptions(),
      handler: screen(async (request, h) => {
        const workspaces = await rows<Record<string, unknown>>(request, '/me/workspaces');
        return ok(workspaces.answer) ? fragment(h, 'partials/workspace-rows', { workspaces: workspaces.rows }) : refusal(h, workspaces.answer);
      }),
    },
    {
      // The platform's message threads to the workspace (owners and admins, as GET /messages).
      method: 'GET',
      path: '/partials/threads',
      options: pageOptions(),
      handler: screen(async (request, h) => {
        const threads = await rows<Record<string, unknown>>(request, '/messages?per_page=50');
        return ok(threads.answer) ? fragment(h, 'partials/thread-rows', { threads: threads.rows }) : refusal(h, threads.answer);
      }),
    },
    {
      // "Microns": the usage meter of the current billing period (owner only, as GET /plan).
      method: 'GET',
      path: '/partials/microns',
      options: pageOptions(),
      handler: screen(async (request, h) => {
        const plan = await callApi<{ data: PlanAnswer }>(request, 'GET', '/plan');
        return ok(plan) ? fragment(h, 'partials/micron-rows', { meter: usageMeter(plan.body.data) }) : refusal(h, plan);
      }),
    },
    {
      // The workspace's coupons from the platform (owner only, as GET /coupon-redemptions).
      method: 'GET',
      path: '/partials/coupons',
      options: pageOptions(),
      handler: screen(async (request, h) => {
        const coupons = await rows<Record<string, unknown>>(request, '/coupon-redemptions');
        return ok(coupons.answer) ? fragment(h, 'partials/coupon-rows', { coupons: coupons.rows }) : refusal(h, coupons.answer);
      }),
    },
    {
      // The product demos the workspace asked for (owners and admins, as GET /demo-requests).
      method: 'GET',
      path: '/partials/demos',
      options: pageOptions(),
      handler: screen(async (request, h) => {
        const demos = await rows<Record<string, unknown>>(request, '/demo-requests?per_page=50');
        return ok(demos.answer) ? fragment(h, 'partials/demo-rows', { demos: demos.rows }) : refusal(h, demos.answer);
      }),
    },
    {
      // The preview apps the workspace was let into (owners and admins, as GET /preview-apps).
      method: 'GET',
      path: '/partials/preview-apps',
      options: pageOptions(),
      handler: screen(async (request, h) => {
        const apps = await rows<Record<string, unknown>>(request, '/preview-apps');
        return ok(apps.answer) ? fragment(h, 'partials/preview-app-rows', { apps: apps.rows }) : refusal(h, apps.answer);
      }),
    },
    {
      // Release notes: the release threads of GET /messages, newest version first, each with its notes (the ten latest versions).
      method: 'GET',
      path: '/partials/releases',
      options: pageOptions(),
      handler: screen(async (request, h) => {
        const threads = await rows<{ id: string; topic: string }>(request, '/messages?per_page=100');
        if (!ok(threads.answer)) return refusal(h, threads.answer);
        const releases = [];
        for (const thread of threads.rows.filter((row) => row.topic === 'release').slice(0, 10)) {
          const detail = await callApi<{ data: Record<string, unknown> }>(request, 'GET', `/messages/${encodeURIComponent(thread.id)}`);
          if (ok(detail)) releases.push(detail.body.data);
        }
        return fragment(h, 'partials/release-rows', { releases });
      }),
    },
    {
      method: 'POST',
      path: '/admin/api-keys',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const values = formValues(request.payload, ['name', 'access']);
        const payload = (request.payload ?? {}) as Record<string, unknown>;
        const scopes = payload.scopes === undefined ? [] : Array.isArray(payload.scopes) ? payload.scopes.map(String) : [String(payload.scopes)];
        // Full access is a choice of its own; a scoped key holds exactly the boxes ticked.
        const fullAccess = values.access !== 'scoped';
        const answer = await callApi<{ data: { name: string; secret: string } }>(request, 'POST', '/api-keys', { name: values.name ?? '', full_access: fullAccess, ...(fullAccess ? {} : { scopes }) });
        // The secret is shown on this one answer only (no-store), never again.
        if (ok(answer)) return renderKeys(request, h, me, { secret: { name: answer.body.data.name, value: answer.body.data.secret } });
        if (denied(answer)) return refusal(h, answer);
        return renderKeys(request, h, me, { form: { ...formFromAnswer(answer, ['name', 'scopes', 'full_access'], values, { full_access: 'scopes' }), values }, checked: scopes }, answer.status);
      }),
    },
    {
      method: 'POST',
      path: '/admin/api-keys/{key_id}/rotate',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const answer = await callApi<{ data: { name: string; secret: string } }>(request, 'PUT', `/api-keys/${encodeURIComponent(String(request.params.key_id))}/secret`, {});
        if (ok(answer)) return renderKeys(request, h, me, { secret: { name: answer.body.data.name, value: answer.body.data.secret } });
        if (denied(answer)) return refusal(h, answer);
        return renderKeys(request, h, me, { form: formError(answer, 'Rotating failed') }, answer.status);
      }),
    },
    {
      method: 'POST',
      path: '/admin/api-keys/{key_id}/revoke',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const answer = await callApi(request, 'DELETE', `/api-keys/${encodeURIComponent(String(request.params.key_id))}`);
        if (ok(answer)) return back(h, '/admin/api-keys?done=revoked');
        if (denied(answer)) return refusal(h, answer);
        return renderKeys(request, h, me, { form: formError(answer, 'Revoking failed') }, answer.status);
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
        if (!ok(workspace)) return refusal(h, workspace);
        // Billing is the owner's (GET /invoices): the owner sees the invoices here, where billing's notifications link (#invoice-{id}).
        if (me.platform_role !== 'owner') return page(h, 'settings', { title: 'Settings', me, details: workspace.body.data });
        const invoices = await rows<Record<string, unknown>>(request, '/invoices?per_page=50');
        return ok(invoices.answer) ? page(h, 'settings', { title: 'Settings', me, details: workspace.body.data, owner: true, invoices: invoices.rows }) : refusal(h, invoices.answer);
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
