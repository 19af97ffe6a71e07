import { createHash } from 'node:crypto';
import type { Request } from '@hapi/hapi';
import { statement, type FastQuery } from '../db/index.js';
import type { WorkspaceRecord } from '../tenancy/index.js';
import type { Credentials, PlatformRole } from './credentials.js';
import { KEY_SOURCE, SESSION_SOURCE, WORKSPACE_ACTIVE, keyValid, sessionValid } from './layers.js';
import type { InstallationView } from './permission-source.js';

/** The installation row as the app guard reads it (the columns of InstallationService.find). */
export interface PrefetchedInstallation extends InstallationView {
  workspace_id: string;
  app_slug: string;
  settings: Record<string, unknown> | null;
  installed_by: string | null;
  installed_at: Date | null;
  uninstalled_by: string | null;
  uninstalled_at: Date | null;
}

/**
 * What the request's one access statement read, before routing: the credential as judged
 * within the subdomain's workspace, and for an app route the installation and the member's
 * role ids and slice of that app. Layers 1, 2, 4 and 5 read it instead of querying again; a
 * credential the statement did not find (unknown, revoked, or of another workspace) is judged
 * again by the ordinary look-up, which tells 401 from 403 exactly as before.
 */
export interface PrefetchedAccess {
  /** The token that was looked up (the Bearer secret, or the session cookie's value). */
  token: string | null;
  kind: 'api_key' | 'session' | null;
  /** The credentials, when the token is valid in this workspace. */
  credentials: Credentials | null;
  /** The app namespace of the matched route, or null off app routes. */
  namespace: string | null;
  installation: PrefetchedInstallation | null;
  /** The member's custom role ids (null when no member was resolved). */
  roleIds: string[] | null;
  /** The permission keys of the app's slice over those roles (null when not read). */
  slice: string[] | null;
}

declare module '@hapi/hapi' {
  interface RequestApplicationState {
    /** The access statement's reading (access/request-access.ts). */
    prefetchedAccess?: PrefetchedAccess;
  }
}

const WORKSPACE_COLUMNS = 'w.id, w.subdomain, w.name, w.plan, w.billing_interval, w.status, w.created_at, w.updated_at';
const INSTALLATION_COLUMNS = `i.workspace_id AS i_workspace_id, i.app_slug AS i_app_slug, i.status AS i_status, i.access_policy AS i_access_policy, i.allowed_roles AS i_allowed_roles,
  i.redlist AS i_redlist, i.settings AS i_settings, i.installed_by AS i_installed_by, i.installed_at AS i_installed_at, i.uninstalled_by AS i_uninstalled_by, i.uninstalled_at AS i_uninstalled_at`;
/**
 * The row as one JSON value: the driver then parses one column (JSON.parse) instead of forty,
 * each with its own parser (dates, arrays, jsonb), and builds no field table per result. The
 * timestamps the request uses become Dates below.
 */
const asJson = (select: string) => statement(`SELECT row_to_json(access) AS access FROM (${select}) access`);

// Role ids and the app's slice, only once a member is resolved (every join carries workspace_id).
const ROLES = `CASE WHEN c.member_id IS NULL THEN NULL ELSE ARRAY(
    SELECT mr.role_id::text FROM platform.member_roles mr WHERE mr.workspace_id = w.id AND mr.member_id = c.member_id) END AS role_ids,
  CASE WHEN c.member_id IS NULL OR $3::text IS NULL THEN NULL ELSE ARRAY(
    SELECT jsonb_array_elements_text(r.permissions -> $3::text)
      FROM platform.member_roles mr JOIN platform.roles r ON r.workspace_id = mr.workspace_id AND r.id = mr.role_id
     WHERE mr.workspace_id = w.id AND mr.member_id = c.member_id AND jsonb_typeof(r.permissions -> $3::text) = 'array') END AS slice`;

/** $1 subdomain, $2 the key's hash (null: no credential), $3 the app namespace (null: not an app route), $4 now (the runtime's clock). */
const WITH_KEY = asJson(`SELECT ${WORKSPACE_COLUMNS}, c.*, ${INSTALLATION_COLUMNS}, ${ROLES}
  FROM platform.workspaces w
  LEFT JOIN LATERAL (
    SELECT k.id AS key_id, k.full_access, k.scopes, k.last_used_at, m.id AS member_id, m.account_id, m.platform_role, a.email, a.name AS member_name
      FROM ${KEY_SOURCE}
     WHERE k.workspace_id = w.id AND k.secret_hash = $2::text AND ${keyValid('$4::timestamptz')}) c ON true
  LEFT JOIN platform.app_installations i ON i.workspace_id = w.id AND i.app_slug = $3::text
 WHERE w.subdomain = $1::text AND ${WORKSPACE_ACTIVE}`);

/** $1 subdomain, $2 the session token's hash, $3 the app namespace (or null), $4 now (the runtime's clock). */
const WITH_SESSION = asJson(`SELECT ${WORKSPACE_COLUMNS}, c.*, ${INSTALLATION_COLUMNS}, ${ROLES}
  FROM platform.workspaces w
  LEFT JOIN LATERAL (
    SELECT s.id AS session_id, s.elevated_until, m.id AS member_id, m.account_id, m.platform_role, a.email, a.name AS member_name
      FROM ${SESSION_SOURCE}
     WHERE s.workspace_id = w.id AND s.token_hash = $2::text AND ${sessionValid('$4::timestamptz')}) c ON true
  LEFT JOIN platform.app_installations i ON i.workspace_id = w.id AND i.app_slug = $3::text
 WHERE w.subdomain = $1::text AND ${WORKSPACE_ACTIVE}`);

/** The access statements, for the benchmark's EXPLAIN and the tests. */
export const ACCESS_STATEMENTS = { withKey: WITH_KEY, withSession: WITH_SESSION };

interface AccessRow {
  id: string;
  subdomain: string;
  name: string;
  plan: string;
  billing_interval: 'monthly' | 'annual';
  status: 'active' | 'suspended' | 'deleted';
  created_at: string;
  updated_at: string;
  key_id?: string | null;
  full_access?: boolean | null;
  scopes?: string[] | null;
  last_used_at?: string | null;
  session_id?: string | null;
  elevated_until?: string | null;
  member_id: string | null;
  account_id: string | null;
  platform_role: PlatformRole | null;
  email: string | null;
  member_name: string | null;
  i_workspace_id: string | null;
  i_app_slug: string | null;
  i_status: 'installed' | 'uninstalled' | null;
  i_access_policy: 'everyone' | 'roles' | 'approval' | null;
  i_allowed_roles: string[] | null;
  i_redlist: string[] | null;
  i_settings: Record<string, unknown> | null;
  i_installed_by: string | null;
  i_installed_at: string | null;
  i_uninstalled_by: string | null;
  i_uninstalled_at: string | null;
  role_ids: string[] | null;
  slice: string[] | null;
}

const dateOrNull = (value: string | null | undefined): Date | null => (value === null || value === undefined ? null : new Date(value));

const SESSION_COOKIE_PATTERN = /(?:^|;\s*)wpk_session=([^;]*)/;

/** The Bearer token of the Authorization header (the auth scheme's own rule), or null. */
function bearerOf(request: Request): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S*)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/**
 * The session cookie as sent, read before hapi parses cookies (onRequest). Only a hint: the auth
 * scheme uses the prefetched credentials only when hapi's parsed value is the same token.
 */
function sessionCookieOf(request: Request): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  const match = SESSION_COOKIE_PATTERN.exec(header);
  return match && match[1].length > 0 ? match[1] : null;
}

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/**
 * The app namespace of the route the request will reach, or null. hapi's `match` throws on a path
 * it cannot decode (a malformed escape, an unpaired surrogate); such a request reaches no app
 * route, and hapi's router answers it with the usual 4xx after this step.
 */
function appNamespaceOf(request: Request): string | null {
  try {
    return request.server.match(request.method, request.path)?.settings.app?.wpkApp?.namespace ?? null;
  } catch {
    return null;
  }
}

/**
 * The request's access statement (one round trip, a prepared statement on PostgreSQL): the
 * workspace of the subdomain, the credential within that workspace (an API key, or else the
 * session cookie), and, when the route is an app's, the installation plus the member's role ids
 * and slice of that app. Nothing is cached: every request reads all of it afresh, so revocation,
 * re-scoping and membership changes bite on the very next request of every process.
 * Expiry is judged at `now`, the runtime's clock (as the ordinary look-ups do), not the database's.
 * Returns the workspace (null: no active workspace on this subdomain).
 */
export async function resolveRequestAccess(fast: FastQuery, request: Request, subdomain: string, now: Date): Promise<WorkspaceRecord | null> {
  const bearer = bearerOf(request);
  const kind = bearer !== null ? 'api_key' : 'session';
  const token = bearer ?? sessionCookieOf(request);
  // An unusable token is looked up as none (the scheme judges it: 401 without a database read).
  const usable = token !== null && (kind === 'api_key' ? token.startsWith('slk_') : token.length >= 20 && token.length <= 200);
  const namespace = appNamespaceOf(request);
  const rows = await fast.rows<{ access: AccessRow }>(kind === 'api_key' ? WITH_KEY : WITH_SESSION, [subdomain.toLowerCase(), usable ? sha256(token) : null, namespace, now]);
  const row = rows[0]?.access;
  if (!row) return null;
  const workspace: WorkspaceRecord = { id: row.id, subdomain: row.subdomain, name: row.name, plan: row.plan, billing_interval: row.billing_interval, status: row.status, created_at: new Date(row.created_at), updated_at: new Date(row.updated_at) };
  let credentials: Credentials | null = null;
  if (usable && row.member_id !== null) {
    const member = { id: row.member_id, workspaceId: row.id, accountId: row.account_id!, platformRole: row.platform_role!, email: row.email!, name: row.member_name! };
    credentials =
      kind === 'api_key'
        ? { member, via: { kind: 'api_key', keyId: row.key_id!, fullAccess: row.full_access!, scopes: row.full_access ? [] : (row.scopes ?? []), lastUsedAt: dateOrNull(row.last_used_at) } }
        : { member, via: { kind: 'session', sessionId: row.session_id!, elevatedUntil: row.elevated_until ? new Date(row.elevated_until) : null } };
  }
  const installation: PrefetchedInstallation | null =
    row.i_app_slug === null
      ? null
      : {
          workspace_id: row.i_workspace_id!,
          app_slug: row.i_app_slug,
          status: row.i_status!,
          access_policy: row.i_access_policy!,
          allowed_roles: row.i_allowed_roles ?? [],
          redlist: row.i_redlist ?? [],
          settings: row.i_settings,
          installed_by: row.i_installed_by,
          installed_at: dateOrNull(row.i_installed_at),
          uninstalled_by: row.i_uninstalled_by,
          uninstalled_at: dateOrNull(row.i_uninstalled_at),
        };
  request.app.prefetchedAccess = { token: usable ? token : null, kind: usable ? kind : null, credentials, namespace, installation, roleIds: row.role_ids, slice: row.slice };
  return workspace;
}

/** The prefetched credentials for `token` of `kind`, when the access statement found them. */
export function prefetchedCredentials(request: Request, kind: 'api_key' | 'session', token: string): Credentials | null {
  const prefetched = request.app.prefetchedAccess;
  if (!prefetched || prefetched.kind !== kind || prefetched.token !== token) return null;
  return prefetched.credentials;
}

/** The prefetched installation of `namespace` (undefined: not read for this namespace; null: never installed). */
export function prefetchedInstallation(request: Request, namespace: string): PrefetchedInstallation | null | undefined {
  const prefetched = request.app.prefetchedAccess;
  return prefetched && prefetched.namespace === namespace ? prefetched.installation : undefined;
}

/** The member's prefetched role ids and slice of `namespace`, when the access statement read them for these very credentials. */
export function prefetchedRoles(request: Request, namespace: string, credentials: Credentials): { roleIds: string[]; slice: string[] } | null {
  const prefetched = request.app.prefetchedAccess;
  if (!prefetched || prefetched.namespace !== namespace || prefetched.credentials !== credentials || prefetched.roleIds === null || prefetched.slice === null) return null;
  return { roleIds: prefetched.roleIds, slice: prefetched.slice };
}
