import type { Lifecycle, Request, ResponseToolkit } from '@hapi/hapi';
import { NotFoundError, type ChainStep } from '@wpk/sdk';
import type { Sequelize } from 'sequelize';
import { evaluateChain, type CheckOutcome } from './chain.js';
import { credentialsOf } from './platform-role.js';
import { AccessDenied, type DenialLayer } from './denial.js';
import { defaultPermissionSourceFactory, isInstalled, type InstallationView, type PermissionSource, type PermissionSourceFactory } from './permission-source.js';
import type { PermissionSet } from './permission-set.js';
import { requestAccess } from './request-access.js';

/** The message of every layer-4 refusal (the specification's words). */
export const APP_ACCESS_DENIED = "You don't have access to this app";

/** What an app route declares to the guard, under `options.app.wpkApp`. */
export interface AppRouteAccess {
  /** The app's namespace (`tasks`, `ext.acme.hello`). */
  namespace: string;
  /** The route's chain from the authorization table; null for a public route. */
  chain: readonly ChainStep[] | null;
  /** `METHOD /pattern` as the manifest lists it, for logs. */
  entry: string;
}

/** What the guard leaves on `request.app.appAccess` for the handler's context. */
export interface AppRequestAccess {
  namespace: string;
  installation: InstallationView & { settings: Record<string, unknown> | null };
  /** Null on a public route. */
  permissions: PermissionSet | null;
  source: PermissionSource | null;
}

/** One refusal, as logged and handed to listeners (the API-key concern emits system.security.permission.denied from here). */
export interface AccessDenial {
  /** 4 or 5 (layers 1 to 3 are refused before an app route's guard runs). */
  layer: DenialLayer;
  /** Why, in words an admin can read. */
  reason: string;
  /** The message the caller got. */
  message: string;
  workspaceId: string;
  memberId: string | null;
  app: string;
  /** `METHOD /path` as requested. */
  route: string;
  /** The denied permission key, when layer 5 refused for a missing key. */
  permission: string | null;
}

export interface AppGuardOptions {
  sequelize: Sequelize;
  /** The installation row of an app in a workspace, read fresh, or null when never installed. */
  loadInstallation(workspaceId: string, namespace: string): Promise<(InstallationView & { settings: Record<string, unknown> | null }) | null>;
  /** Runs a named check of the app's code for this request. */
  runCheck(request: Request, access: AppRequestAccess, name: string): Promise<CheckOutcome>;
  /** Builds the caller's PermissionSource; default: member for sessions and full-access keys, scopes for scoped keys. */
  permissionSources?: () => PermissionSourceFactory;
  /** Called for every denial, after it is logged. */
  onDenied?: (denial: AccessDenial, request: Request) => void;
}

declare module '@hapi/hapi' {
  interface RouteOptionsApp {
    /** Set on app routes: the guard runs layers 4 and 5 for them. */
    wpkApp?: AppRouteAccess;
  }
  interface RequestApplicationState {
    /** What the app guard decided, for the handler's context. */
    appAccess?: AppRequestAccess;
  }
}

/**
 * The app guard: layer 4 (app installed + access policy; owners and admins pass; a scoped key
 * needs one key of the app) and layer 5 (the route's authorization chain on the app's slice of
 * the caller's permissions, named checks included). It is an onPostAuth extension of the app
 * routes alone (`route.options.ext`, set where they are mounted: apps/mount.ts), so it runs after
 * authentication and before validation and any app logic, and no other route passes through it.
 * Layers 1 and 2 are the auth scheme's. Nothing is cached: installation, roles and slices are read
 * for every request (the request's access, access/request-access.ts). Every refusal is logged
 * with its layer and reason.
 */
export function appGuard(options: AppGuardOptions): Lifecycle.Method {
  const { sequelize } = options;
  // The denial is thrown typed; server/conventions.ts logs it and answers it. Listeners hear it here.
  const deny = (request: Request, denial: Omit<AccessDenial, 'workspaceId' | 'route' | 'message'>, message: string): never => {
    const full: AccessDenial = { ...denial, message, workspaceId: request.app.workspace?.id ?? '', route: `${request.method.toUpperCase()} ${request.route.path}` };
    options.onDenied?.(full, request);
    throw new AccessDenied(full.layer, message, full.reason, full.permission, full.app, `${full.route} in ${full.app}`);
  };

  return async (request: Request, h: ResponseToolkit) => {
    const route = request.route.settings.app?.wpkApp;
    if (!route) return h.continue;
    const workspace = request.app.workspace;
    if (!workspace) throw new NotFoundError(`${request.path} is served on a workspace subdomain`);
    // Layers 4 and 5 read the request's access (access/request-access.ts), as the auth scheme does.
    const access = requestAccess(request);
    const installation = await access.installation(workspace.id, route.namespace, options.loadInstallation);

    if (route.chain === null) {
      // Public route: no caller, but the app must be installed in this workspace.
      if (!isInstalled(installation)) throw new NotFoundError(`App ${route.namespace} is not installed in this workspace`);
      request.app.appAccess = { namespace: route.namespace, installation, permissions: null, source: null };
      return h.continue;
    }

    // Layers 1 and 2 (a credential, of this workspace) are the auth scheme's (identity/http/auth-scheme.ts).
    const credentials = credentialsOf(request);
    const base = { memberId: credentials.member.id, app: route.namespace, permission: null };
    const roles = await access.roles(route.namespace, credentials, sequelize);
    const source = (options.permissionSources?.() ?? defaultPermissionSourceFactory)(credentials, sequelize, roles);
    // An app's token reaches its own app only, whoever the member is.
    if (credentials.via.kind === 'app_token' && credentials.via.app !== route.namespace) deny(request, { ...base, layer: 4, reason: `app token of ${credentials.via.app}` }, APP_ACCESS_DENIED);
    if (!isInstalled(installation)) deny(request, { ...base, layer: 4, reason: `app not installed (${source.label})` }, APP_ACCESS_DENIED);
    const decision = await source.appAccess(route.namespace, installation!);
    if (!decision.allowed) deny(request, { ...base, layer: 4, reason: `${decision.reason} (${source.label})` }, APP_ACCESS_DENIED);

    const permissions = await source.appPermissions(route.namespace);
    const appAccess: AppRequestAccess = { namespace: route.namespace, installation: installation!, permissions, source };
    const verdict = await evaluateChain(route.chain, permissions, (name) => options.runCheck(request, appAccess, name));
    if (!verdict.allowed) {
      const reason = `${verdict.reason}; holds ${permissions.grantedKeys().join(', ') || 'nothing'} (${source.label}; chain of ${route.entry})`;
      deny(request, { ...base, permission: verdict.permission, layer: 5, reason }, verdict.message);
    }
    request.app.appAccess = appAccess;
    return h.continue;
  };
}
