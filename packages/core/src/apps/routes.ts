import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { ConflictError, ForbiddenError, InvalidError, Joi } from '@wpk/sdk';
import type { Logger } from 'pino';
import { QueryTypes, type Sequelize } from 'sequelize';
import { AccessDenied, APP_ACCESS_DENIED, credentialsOf, isInstalled, PLATFORM_KEYS_NOT_IN_ROLES, PLATFORM_NAMESPACE, platformAccessOverview, requireRole, defaultPermissionSourceFactory, scopesOf } from '../access/index.js';
import type { EventSink } from '../events/index.js';
import { runInRequestTransaction, single, type RequestWork } from '../server/index.js';
import { APP_ACCESS_OVERVIEW, APP_ACCESS_REQUEST, APP_INSTALL_REQUEST, APP_INSTALLATION, APP_SETTINGS, APP_STATUS, ROLE_APP_PERMISSIONS } from './answers.js';
import type { InstallationRow, InstallationService } from './installations.js';
import type { LoadedApp } from './loader.js';
import type { NotificationService, PendingDelivery } from '../notifications/index.js';

/** What the platform's app endpoints need. */
export interface AppEndpointServices {
  sequelize: Sequelize;
  logger: Logger;
  installations: InstallationService;
  notifications: NotificationService;
  apps: { require(namespace: string): LoadedApp; list(): LoadedApp[] };
  /** Where the endpoints' events are staged (the event bus's outbox, or the `eventSink` seam's wrap). */
  sink: EventSink;
}

const SLUG = Joi.string().max(100).required();
const ROLE_IDS = Joi.array().items(Joi.id().lowercase()).max(200);
const POLICY = Joi.string().valid('everyone', 'roles', 'approval');
const api = { wpk: { kind: 'api' as const, scope: 'workspace' as const } };

/** An installation as the endpoints answer it. */
export function presentInstallation(app: LoadedApp, row: InstallationRow | null) {
  const installed = isInstalled(row);
  return {
    slug: app.namespace,
    name: app.manifest.name,
    version: app.manifest.version,
    first_party: app.firstParty,
    status: row ? row.status : 'not_installed',
    installed,
    access_policy: installed ? row!.access_policy : null,
    allowed_roles: installed ? row!.allowed_roles : [],
    redlist: installed ? row!.redlist : [],
    installed_at: row?.installed_at ? new Date(row.installed_at).toISOString() : null,
    installed_by: row?.installed_by ?? null,
    uninstalled_at: row?.uninstalled_at ? new Date(row.uninstalled_at).toISOString() : null,
  };
}

/**
 * The platform's app endpoints: install status, install and access requests, installation and
 * uninstallation, access policy, the access overview, settings and role slices (owners and
 * admins are notified of requests through the notifications concern). Management routes pass layer 3 (owner or admin; a scoped key never).
 */
export function appEndpoints(services: AppEndpointServices): ServerRoute[] {
  const { installations, notifications, logger } = services;

  const layer3 = (request: Request, action: string) => {
    try {
      return requireRole(request, 'admin', action);
    } catch (error) {
      if (!(error instanceof ForbiddenError)) throw error;
      const credentials = credentialsOf(request);
      const reason = `platform role ${credentials.member.platformRole}${scopesOf(credentials) !== null ? ` (${credentials.via.kind === 'app_grant' ? 'app grant' : 'scoped key'})` : ''} may not ${action}`;
      throw new AccessDenied(3, error.message, reason);
    }
  };

  /** Runs a write in the request's transaction; notifications' mails and pushes go out only once it has committed. */
  const write = async (request: Request, h: ResponseToolkit, work: (unit: RequestWork, pending: PendingDelivery[]) => Promise<unknown>) => {
    const pending: PendingDelivery[] = [];
    const answer = await runInRequestTransaction(services.sequelize, services.sink, request, h, (unit) => work(unit, pending));
    const status = (answer as { statusCode?: unknown } | null)?.statusCode;
    const committed = typeof status !== 'number' || (status >= 200 && status < 300);
    // Best effort, after the answer: the notification is stored; a delivery failure never fails the request.
    if (committed && pending.length > 0) void notifications.deliver(pending).catch((error: Error) => logger.error({ err: error }, 'notification delivery failed'));
    return answer;
  };

  const appOf = (request: Request) => services.apps.require(String(request.params.slug));
  const workspaceId = (request: Request) => request.app.workspace!.id;
  const systemEvent = (unit: RequestWork, workspace: string, action: string, payload: Record<string, unknown>) =>
    unit.stage({ emitter: 'system', action, payload, metadata: { workspace_id: workspace } });

  const canOpen = async (request: Request, app: LoadedApp, row: InstallationRow | null) => {
    if (!isInstalled(row)) return false;
    const source = defaultPermissionSourceFactory(credentialsOf(request), services.sequelize);
    return (await source.appAccess(app.namespace, row)).allowed;
  };

  return [
    {
      method: 'GET',
      path: '/applications/{slug}/status',
      options: { app: { ...api, answers: { single: APP_STATUS }, platformAccess: 'account.apps.read' }, validate: { params: Joi.object({ slug: SLUG }) } },
      handler: async (request) => {
        const app = appOf(request);
        const row = await installations.find(workspaceId(request), app.namespace);
        return single(request, { ...presentInstallation(app, row), can_open: await canOpen(request, app, row) });
      },
    },
    {
      method: 'POST',
      path: '/applications/{slug}/requests',
      options: { app: { ...api, answers: { single: APP_INSTALL_REQUEST }, platformAccess: 'account.app_requests.create' }, validate: { params: Joi.object({ slug: SLUG }) } },
      handler: (request, h) =>
        write(request, h, async (_unit, pending) => {
          const app = appOf(request);
          const caller = credentialsOf(request).member;
          const row = await installations.find(workspaceId(request), app.namespace);
          if (isInstalled(row)) throw new ConflictError(`App ${app.namespace} is already installed`);
          const recorded = await installations.recordRequest(workspaceId(request), app.namespace, 'install', caller.id, null);
          const recipients = await notifications.ownersAndAdmins(workspaceId(request));
          pending.push(
            ...(await notifications.notify(workspaceId(request), recipients, {
              kind: 'app.install_requested',
              title: `${caller.name} asks to install ${app.manifest.name}`,
              body: `${caller.name} (${caller.email}) asks you to install ${app.manifest.name} in ${request.app.workspace!.name}.`,
              link: `/admin/apps#app-${app.namespace}`,
              data: { app_slug: app.namespace, request_id: recorded.id, member_id: caller.id },
            })),
          );
          return single(request, { id: recorded.id, kind: 'install', app_slug: app.namespace, member_id: caller.id, notified: recipients.length, created_at: new Date(recorded.created_at).toISOString() });
        }),
    },
    {
      method: 'POST',
      path: '/applications/{slug}/installations',
      options: {
        app: { ...api, answers: { single: APP_INSTALLATION }, platformAccess: 'account.apps.manage' },
        validate: { params: Joi.object({ slug: SLUG }), payload: Joi.object({ access_policy: POLICY.default('roles'), allowed_roles: ROLE_IDS.default([]) }).allow(null).default({}) },
      },
      handler: (request, h) =>
        write(request, h, async (unit) => {
          const caller = layer3(request, 'install apps');
          const app = appOf(request);
          const payload = (request.payload ?? {}) as { access_policy?: 'everyone' | 'roles' | 'approval'; allowed_roles?: string[] };
          const row = await installations.install(workspaceId(request), app, { access_policy: payload.access_policy ?? 'roles', allowed_roles: payload.allowed_roles ?? [] }, caller.id);
          systemEvent(unit, workspaceId(request), 'system.app.installed', { app_slug: app.namespace, installed_by: caller.id });
          systemEvent(unit, workspaceId(request), 'core.account.application.installed', { app_slug: app.namespace, app_name: app.manifest.name, installed_by: caller.id });
          return single(request, presentInstallation(app, row));
        }),
    },
    {
      method: 'DELETE',
      path: '/applications/{slug}/installations',
      options: { app: { ...api, answers: { single: APP_INSTALLATION }, platformAccess: 'account.apps.manage' }, validate: { params: Joi.object({ slug: SLUG }) } },
      handler: (request, h) =>
        write(request, h, async (unit) => {
          const caller = layer3(request, 'uninstall apps');
          const app = appOf(request);
          const row = await installations.uninstall(workspaceId(request), app, caller.id);
          systemEvent(unit, workspaceId(request), 'system.app.uninstalled', { app_slug: app.namespace, uninstalled_by: caller.id });
          systemEvent(unit, workspaceId(request), 'core.account.application.uninstalled', { app_slug: app.namespace, app_name: app.manifest.name, uninstalled_by: caller.id });
          return single(request, presentInstallation(app, row));
        }),
    },
    {
      method: 'POST',
      path: '/applications/{slug}/access-requests',
      options: { app: { ...api, answers: { single: APP_ACCESS_REQUEST }, platformAccess: 'account.app_requests.create' }, validate: { params: Joi.object({ slug: SLUG }), payload: Joi.object({ message: Joi.string().allow('').max(280) }).allow(null).default({}) } },
      handler: (request, h) =>
        write(request, h, async (_unit, pending) => {
          const app = appOf(request);
          const caller = credentialsOf(request).member;
          const row = await installations.requireInstalled(workspaceId(request), app);
          if (row.access_policy === 'everyone') throw new ConflictError(`App ${app.namespace} is open to everyone: there is no access to request`);
          if (await canOpen(request, app, row)) throw new ConflictError('You already have access to this app');
          const message = ((request.payload ?? {}) as { message?: string }).message?.trim() || null;
          const recorded = await installations.recordRequest(workspaceId(request), app.namespace, 'access', caller.id, message);
          const recipients = await notifications.ownersAndAdmins(workspaceId(request));
          pending.push(
            ...(await notifications.notify(workspaceId(request), recipients, {
              kind: 'app.access_requested',
              title: `${caller.name} asks for access to ${app.manifest.name}`,
              body: `${caller.name} (${caller.email}) asks for access to ${app.manifest.name}.${message ? `\n\n"${message}"` : ''}`,
              link: `/admin/apps#app-${app.namespace}`,
              data: { app_slug: app.namespace, request_id: recorded.id, member_id: caller.id, message },
            })),
          );
          return single(request, { id: recorded.id, kind: 'access', app_slug: app.namespace, member_id: caller.id, message, notified: recipients.length, created_at: new Date(recorded.created_at).toISOString() });
        }),
    },
    {
      method: 'PUT',
      path: '/applications/{slug}/access',
      options: {
        app: { ...api, answers: { single: APP_INSTALLATION }, platformAccess: 'account.apps.manage' },
        validate: {
          params: Joi.object({ slug: SLUG }),
          payload: Joi.object({ access_policy: POLICY.required(), allowed_roles: ROLE_IDS, redlist: Joi.array().items(Joi.string().min(1).max(100)).max(1000) }),
        },
      },
      handler: (request, h) =>
        write(request, h, async () => {
          layer3(request, 'change app access');
          const app = appOf(request);
          const row = await installations.setAccess(workspaceId(request), app, request.payload as { access_policy: 'everyone' | 'roles' | 'approval'; allowed_roles?: string[]; redlist?: string[] });
          return single(request, presentInstallation(app, row));
        }),
    },
    {
      method: 'GET',
      path: '/apps/{slug}/access',
      options: { app: { ...api, answers: { single: APP_ACCESS_OVERVIEW }, platformAccess: 'account.apps.read' }, validate: { params: Joi.object({ slug: SLUG }) } },
      handler: async (request) => {
        layer3(request, 'view app access');
        if (request.params.slug === PLATFORM_NAMESPACE) return single(request, platformAccessOverview());
        const app = appOf(request);
        const workspace = workspaceId(request);
        const row = await installations.find(workspace, app.namespace);
        const roles = await installations.roleSlices(workspace, app.namespace);
        const installed = isInstalled(row);
        const allowed = installed && row!.access_policy === 'roles' ? row!.allowed_roles : [];
        const elevated = await services.sequelize.query<{ member_id: string; name: string; email: string; platform_role: string }>(
          `SELECT m.id AS member_id, a.name, a.email, m.platform_role FROM platform.members m JOIN platform.accounts a ON a.id = m.account_id
            WHERE m.workspace_id = :workspace AND m.platform_role IN ('owner', 'admin') AND m.deactivated_at IS NULL ORDER BY m.platform_role DESC, a.name, m.id`,
          { type: QueryTypes.SELECT, replacements: { workspace } },
        );
        return single(request, {
          app: { slug: app.namespace, name: app.manifest.name, version: app.manifest.version, tile: app.manifest.tile ?? { name: app.manifest.name, icon: 'app' }, meters: (app.manifest.meters ?? []).map(({ name, description }) => ({ name, description })), platform_requests: app.manifest.platform_requests === true },
          tile_access: {
            installed,
            status: row ? row.status : 'not_installed',
            access_policy: installed ? row!.access_policy : null,
            allowed_roles: roles.filter((role) => allowed.includes(role.id)).map((role) => ({ id: role.id, name: role.name })),
            redlist: installed ? row!.redlist : [],
          },
          permission_matrix: {
            permissions: app.manifest.permissions.map((permission) => ({ key: permission.key, label: permission.label, category: permission.category })),
            roles: roles.map((role) => {
              const wildcard = role.permissions.includes(`${app.namespace}.*`);
              return {
                id: role.id,
                name: role.name,
                can_open: installed && (row!.access_policy === 'everyone' || allowed.includes(role.id)) && !row!.redlist.includes(role.id),
                wildcard,
                granted: role.permissions,
                permissions: wildcard ? [...app.declaredKeys] : app.declaredKeys.filter((key) => role.permissions.includes(key)),
              };
            }),
          },
          config: { schema: app.manifest.settings?.schema ?? null, defaults: app.manifest.settings?.defaults ?? null, document: installations.effectiveSettings(app, row) },
          exception_grants: elevated.map((member) => ({ member_id: member.member_id, name: member.name, email: member.email, platform_role: member.platform_role, reason: 'owners and admins hold the universal wildcard: they open every installed app with every permission' })),
        });
      },
    },
    {
      method: 'GET',
      path: '/apps/{slug}/settings',
      options: { app: { ...api, answers: { single: APP_SETTINGS }, platformAccess: 'account.apps.read' }, validate: { params: Joi.object({ slug: SLUG }) } },
      handler: async (request) => {
        const app = appOf(request);
        const credentials = credentialsOf(request);
        const row = await installations.find(workspaceId(request), app.namespace);
        const admin = scopesOf(credentials) === null ? ['owner', 'admin'].includes(credentials.member.platformRole) : false;
        if (!admin && !(await canOpen(request, app, row))) {
          throw new AccessDenied(4, APP_ACCESS_DENIED, 'settings of an app the caller cannot open', null, app.namespace);
        }
        return single(request, installations.effectiveSettings(app, row));
      },
    },
    {
      method: 'PUT',
      path: '/apps/{slug}/settings',
      options: { app: { ...api, answers: { single: APP_SETTINGS }, platformAccess: 'account.apps.manage' }, validate: { params: Joi.object({ slug: SLUG }), payload: Joi.object().unknown(true).required() } },
      handler: (request, h) =>
        write(request, h, async () => {
          layer3(request, 'change app settings');
          const app = appOf(request);
          const document = await installations.putSettings(workspaceId(request), app, request.payload as Record<string, unknown>);
          return single(request, document);
        }),
    },
    {
      method: 'PUT',
      path: '/apps/{slug}/roles/{role_id}/permissions',
      options: {
        app: { ...api, answers: { single: ROLE_APP_PERMISSIONS }, platformAccess: 'account.roles.manage' },
        validate: { params: Joi.object({ slug: SLUG, role_id: Joi.id().required() }), payload: Joi.object({ permissions: Joi.array().items(Joi.string().max(200)).max(500).required() }) },
      },
      handler: (request, h) =>
        write(request, h, async (unit) => {
          const caller = layer3(request, 'change role permissions');
          if (request.params.slug === PLATFORM_NAMESPACE) throw new InvalidError(PLATFORM_KEYS_NOT_IN_ROLES);
          const app = appOf(request);
          const { permissions } = request.payload as { permissions: string[] };
          const result = await installations.setRoleSlice(workspaceId(request), app, String(request.params.role_id), permissions);
          unit.stage({
            emitter: 'system',
            action: 'core.account.role.updated',
            payload: { role_id: result.role.id, role_name: result.role.name, changed_fields: [`permissions.${app.namespace}`], updated_by: caller.id },
            metadata: { workspace_id: workspaceId(request) },
          });
          return single(request, { role_id: result.role.id, role_name: result.role.name, app_slug: app.namespace, permissions: result.permissions });
        }),
    },
  ];
}
