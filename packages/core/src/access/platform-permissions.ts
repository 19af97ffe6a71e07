import type { Request, Server } from '@hapi/hapi';
import { AccessDenied } from './denial.js';
import { scopesOf, type Credentials } from './credentials.js';
import { PermissionSet } from './permission-set.js';

/**
 * The reserved namespace of the platform's own permission keys (`account.members.read`). It
 * matches the event catalog's `core.account.*`, is none of the specification's app names, and no
 * app may take it (the SDK's manifest validator and the runtime refuse the slug).
 */
export const PLATFORM_NAMESPACE = 'account';

/** One permission of the platform's own operations, shaped like an app's permission definition. */
export interface PlatformPermission {
  key: string;
  label: string;
  category: string;
}

/**
 * Every platform permission key, one per resource and verb. Sessions and full-access keys hold
 * them all (layer 3 still decides who may do what); a scoped key holds the ones in its scopes.
 */
export const PLATFORM_PERMISSIONS = [
  { key: 'account.members.read', label: 'Read the member directory and avatars', category: 'Members' },
  { key: 'account.members.invite', label: 'Invite members', category: 'Members' },
  { key: 'account.members.edit', label: "Change members' platform role and roles", category: 'Members' },
  { key: 'account.members.delete', label: 'Remove members', category: 'Members' },
  { key: 'account.avatars.edit', label: 'Upload and clear avatars', category: 'Members' },
  { key: 'account.roles.read', label: 'Read custom roles', category: 'Roles' },
  { key: 'account.roles.manage', label: "Create, change and delete custom roles, and set an app's permissions of a role", category: 'Roles' },
  { key: 'account.workspaces.read', label: 'Read the workspace', category: 'Workspace' },
  { key: 'account.activities.read', label: 'Read the activity trail', category: 'Activity and audit' },
  { key: 'account.activities.export', label: 'Export the activity trail as CSV', category: 'Activity and audit' },
  { key: 'account.audit_entries.read', label: 'Read the admin audit and the audit trail', category: 'Activity and audit' },
  { key: 'account.apps.read', label: "Read apps' install status, access overview and settings", category: 'Apps' },
  { key: 'account.apps.manage', label: "Install and uninstall apps, change their access and settings", category: 'Apps' },
  { key: 'account.app_requests.create', label: 'Ask for an app to be installed, or for access to one', category: 'Apps' },
  { key: 'account.notifications.read', label: 'Read your notifications', category: 'Notifications' },
  { key: 'account.notifications.edit', label: 'Mark your notifications read or unread', category: 'Notifications' },
  { key: 'account.billing_accounts.read', label: 'Read the plan, invoices and payment methods (the owner only)', category: 'Billing' },
  { key: 'account.billing_accounts.manage', label: 'Change the plan and billing interval, add payment methods (the owner only)', category: 'Billing' },
  { key: 'account.preview_apps.read', label: 'See the preview apps the workspace was let into early (owners and admins)', category: 'Messages' },
  { key: 'account.demo_requests.read', label: "Read the workspace's demo requests (owners and admins)", category: 'Messages' },
  { key: 'account.demo_requests.create', label: 'Ask the platform for a product demo (owners and admins)', category: 'Messages' },
  { key: 'account.messages.read', label: "Read the platform's messages to the workspace (owners and admins)", category: 'Messages' },
  { key: 'account.notification_preferences.read', label: 'Read your notification preferences', category: 'Notifications' },
  { key: 'account.notification_preferences.edit', label: 'Change your notification preferences', category: 'Notifications' },
  { key: 'account.push_subscriptions.create', label: 'Let a browser show your notifications (web push)', category: 'Notifications' },
  { key: 'account.push_devices.create', label: 'Let a phone show your notifications', category: 'Notifications' },
] as const satisfies readonly PlatformPermission[];

/** Why a custom role cannot carry platform keys (POST/PATCH /roles, PUT /apps/account/roles/{id}/permissions). */
export const PLATFORM_KEYS_NOT_IN_ROLES = `${PLATFORM_NAMESPACE} permissions are not granted through custom roles: every member holds them and the platform role decides (a scoped API key can be given them)`;

/** A platform permission key. */
export type PlatformPermissionKey = (typeof PLATFORM_PERMISSIONS)[number]['key'];

/** The platform keys, for scope validation. */
export const PLATFORM_PERMISSION_KEYS: readonly string[] = PLATFORM_PERMISSIONS.map((permission) => permission.key);

/**
 * What a credentialed platform route declares under `options.app.platformAccess`: the platform
 * key it needs, or why it needs none.
 * - `caller`: any credential (GET /me: who am I).
 * - `session`: a browser session only; the handler refuses every API key.
 * - `full-access`: never a scoped key (API-key management); layer 3 refuses scoped keys.
 * - `app`: gated by the named app's own access and permissions (search).
 */
export type PlatformRouteAccess = PlatformPermissionKey | 'caller' | 'session' | 'full-access' | 'app';

declare module '@hapi/hapi' {
  interface RouteOptionsApp {
    /** Set on every credentialed platform route: the platform key a scoped key needs, or why none. */
    platformAccess?: PlatformRouteAccess;
  }
}

/**
 * `GET /apps/account/access`: the platform keys in the envelope an app's access overview has.
 * The platform is always open; custom roles carry no platform keys (the platform role decides),
 * so the matrix lists no roles and there are no exception grants.
 */
export function platformAccessOverview() {
  return {
    app: { slug: PLATFORM_NAMESPACE, name: 'Account', version: null, tile: null, meters: [], platform_requests: false },
    tile_access: { installed: true, status: 'installed', access_policy: 'everyone', allowed_roles: [], redlist: [] },
    permission_matrix: { permissions: PLATFORM_PERMISSIONS.map(({ key, label, category }) => ({ key, label, category })), roles: [] },
    config: { schema: null, defaults: null, document: null },
    exception_grants: [],
  };
}

/** True when `rule` names a platform permission key. */
export function isPlatformPermissionKey(rule: unknown): rule is PlatformPermissionKey {
  return typeof rule === 'string' && PLATFORM_PERMISSION_KEYS.includes(rule);
}

/**
 * True when the caller is a scoped key whose scopes hold the platform key this request's route
 * declares: such a key stands for its member at layer 3 (it never outranks the member).
 */
export function scopedKeyCoversRoute(request: Request, credentials: Credentials): boolean {
  const scopes = scopesOf(credentials);
  if (scopes === null) return false;
  const rule = request.route.settings.app?.platformAccess;
  return isPlatformPermissionKey(rule) && PermissionSet.of(PLATFORM_NAMESPACE, scopes).has(rule);
}

/**
 * The platform routes an app's token may use (docs/ui.md, "The bridge"): who am I, the sockets
 * (each channel or session is then judged for the token's app only), and search inside its own
 * app. Everything else of the platform (members, keys, roles, the member's other workspaces,
 * notifications, billing) is the shell's, never an app's.
 */
const APP_TOKEN_PLATFORM_ROUTES = new Set(['get /me', 'get /live', 'get /signaling', 'get /search', 'post /search']);

/** Why an app token may not use this platform route, or null when it may. */
export function appTokenRefusal(request: Request, app: string): string | null {
  const route = `${request.method} ${request.route.path}`;
  if (!APP_TOKEN_PLATFORM_ROUTES.has(route)) return `An app's token reaches its own app's routes only: ${request.method.toUpperCase()} ${request.route.path} is not one of them`;
  if (request.route.settings.app?.platformAccess === 'app') {
    const asked = (request.query as Record<string, unknown>).app ?? (request.payload as Record<string, unknown> | null)?.app;
    if (asked !== app) return `An app's token searches its own app only (${app})`;
  }
  return null;
}

/**
 * The platform guard (onPostAuth, before validation and any handler) for every credentialed
 * route that is not an app's: a scoped key passes only when its scopes hold the platform key the
 * route declares (`account.*` holds them all), else 403 `Missing permission: {key}`. A route that
 * declares nothing refuses scoped keys (fail closed). Sessions and full-access keys are not
 * judged here: they hold every platform key, and layer 3 decides as before.
 */
export function installPlatformGuard(server: Server): void {
  server.ext('onPostAuth', (request, h) => {
    const settings = request.route.settings;
    if (settings.app?.wpkApp || !request.auth.isAuthenticated) return h.continue;
    const credentials = request.auth.credentials as Partial<Credentials> | null;
    if (credentials?.member && credentials.via?.kind === 'app_token') {
      const refusal = appTokenRefusal(request, credentials.via.app);
      if (refusal) throw new AccessDenied(4, refusal, `app token of ${credentials.via.app}`, null, PLATFORM_NAMESPACE, `app token of ${credentials.via.app}, ${request.method.toUpperCase()} ${request.route.path}`);
      return h.continue;
    }
    const scopes = credentials?.member && credentials.via ? scopesOf(credentials as Credentials) : null;
    if (scopes === null) return h.continue;
    const rule = settings.app?.platformAccess;
    if (rule !== undefined && !isPlatformPermissionKey(rule)) return h.continue;
    if (rule !== undefined && PermissionSet.of(PLATFORM_NAMESPACE, scopes).has(rule)) return h.continue;
    // The template, as every log names a request: a concrete path may carry a token.
    const declared = `${request.method.toUpperCase()} ${request.route.path}`;
    const route = declared;
    const held = scopes.filter((scope) => scope.startsWith(`${PLATFORM_NAMESPACE}.`));
    const via = credentials!.via!;
    const who = via.kind === 'api_key' ? 'A scoped API key' : "An app's grant";
    const message = rule === undefined ? `${who} cannot use ${declared}: the route declares no platform permission` : `Missing permission: ${rule}`;
    const reason = rule === undefined ? `${declared} declares no platform permission` : `lacks ${rule}; holds ${held.join(', ') || 'no platform key'}`;
    throw new AccessDenied(5, message, reason, rule ?? null, PLATFORM_NAMESPACE, `${via.kind === 'api_key' ? `scoped key ${via.keyId}` : via.kind === 'app_grant' ? `grant of app ${via.app}` : via.kind}, ${route}`);
  });
}
