import { createHash } from 'node:crypto';
import type { Request } from '@hapi/hapi';
import { QueryTypes, type Sequelize } from 'sequelize';
import { statement, type FastQuery } from '../db/index.js';
import type { WorkspaceRecord } from '../tenancy/index.js';
import type { Credentials, PlatformRole } from './credentials.js';
import { KEY_SOURCE, SESSION_SOURCE, WORKSPACE_ACTIVE, keyValid, sessionValid } from './layers.js';
import { readsRoles, type InstallationView, type PrefetchedRoles } from './permission-source.js';

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
 * role ids and slice of that app.
 */
export interface AccessReading {
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

/** The kind of credential a request presents, as the auth scheme tells them apart. */
export type PresentedKind = 'api_key' | 'session' | 'app_token';

/** Judges a presented credential alone (in its own workspace): the API-key, session or app-token look-up. */
export type CredentialJudge = (token: string) => Promise<Credentials | null>;

/**
 * The request's access: what layers 1, 2, 4 and 5 read, resolved once per request and memoised
 * on it (`requestAccess(request)`). Layers ask it and never query themselves:
 * - the auth scheme (layers 1-2) asks `credentials(kind, token, judge)`;
 * - the app guard (layers 4-5) asks `installation(...)` and `roles(...)`.
 * On a workspace subdomain it carries the access statement's reading (one round trip before
 * routing, `resolveRequestAccess`); what the reading does not cover (a credential unknown in this
 * workspace, which may be another workspace's: 403, or nobody's: 401; an app token; a host with no
 * workspace) is judged here once, by the look-up the caller names, and remembered for the request.
 * Nothing outlives the request: revocation, re-scoping and membership changes bite on the next one.
 */
export class RequestAccess {
  private credentialsRead: Promise<Credentials | null> | undefined;
  private installationRead: Promise<InstallationRecord | null> | undefined;
  private rolesRead: Promise<PrefetchedRoles | null> | undefined;

  constructor(
    /** The access statement's reading, or null when none ran (no workspace subdomain). */
    readonly reading: AccessReading | null,
  ) {}

  /**
   * Layers 1 and 2's input: the credentials `token` of `kind` stands for, or null (invalid,
   * revoked, expired, not a joined member). From the reading when it found them in this
   * workspace; otherwise from `judge`, which judges the token in its own workspace.
   */
  credentials(kind: PresentedKind, token: string, judge: CredentialJudge | null): Promise<Credentials | null> {
    this.credentialsRead ??= this.readCredentials(kind, token, judge);
    return this.credentialsRead;
  }

  private async readCredentials(kind: PresentedKind, token: string, judge: CredentialJudge | null): Promise<Credentials | null> {
    const reading = this.reading;
    if (reading && reading.kind === kind && reading.token === token && reading.credentials) return reading.credentials;
    return judge ? judge(token) : null;
  }

  /** Layer 4's input: the app's installation in the workspace (null: never installed). */
  installation(workspaceId: string, namespace: string, load: (workspaceId: string, namespace: string) => Promise<InstallationRecord | null>): Promise<InstallationRecord | null> {
    this.installationRead ??= this.reading && this.reading.namespace === namespace ? Promise.resolve(this.reading.installation) : load(workspaceId, namespace);
    return this.installationRead;
  }

  /**
   * Layers 4 and 5's input for a member's rights: the member's role ids and the app's slice.
   * Null when the credentials read no roles (owners and admins pass on their platform role; a
   * scoped key holds its scopes). Read by the statement for its own credentials; for others (an
   * app token) read here, in one statement.
   */
  roles(namespace: string, credentials: Credentials, sequelize: Sequelize): Promise<PrefetchedRoles | null> {
    this.rolesRead ??= this.readRoles(namespace, credentials, sequelize);
    return this.rolesRead;
  }

  private async readRoles(namespace: string, credentials: Credentials, sequelize: Sequelize): Promise<PrefetchedRoles | null> {
    const reading = this.reading;
    if (reading && reading.namespace === namespace && reading.credentials === credentials && reading.roleIds !== null && reading.slice !== null) {
      return { namespace, roleIds: reading.roleIds, slice: reading.slice };
    }
    if (!readsRoles(credentials)) return null;
    const [row] = await sequelize.query<{ role_ids: string[]; slice: string[] }>(ROLES_OF_MEMBER, {
      type: QueryTypes.SELECT,
      bind: [credentials.member.workspaceId, credentials.member.id, namespace],
    });
    return { namespace, roleIds: row?.role_ids ?? [], slice: row?.slice ?? [] };
  }
}

/** The installation row as layer 4 and the handler's context read it. */
export type InstallationRecord = InstallationView & { settings: Record<string, unknown> | null };

/** The request's access, memoised on it (an empty reading when no access statement ran). */
export function requestAccess(request: Request): RequestAccess {
  request.app.access ??= new RequestAccess(null);
  return request.app.access;
}

declare module '@hapi/hapi' {
  interface RequestApplicationState {
    /** The request's access (access/request-access.ts), read by the auth scheme and the app guard. */
    access?: RequestAccess;
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

/** A member's role ids and one app's slice, for credentials the access statement did not read ($1 workspace, $2 member, $3 namespace). */
const ROLES_OF_MEMBER = `SELECT ARRAY(SELECT mr.role_id::text FROM platform.member_roles mr WHERE mr.workspace_id = $1::uuid AND mr.member_id = $2::uuid) AS role_ids,
  ARRAY(SELECT jsonb_array_elements_text(r.permissions -> $3::text)
          FROM platform.member_roles mr JOIN platform.roles r ON r.workspace_id = mr.workspace_id AND r.id = mr.role_id
         WHERE mr.workspace_id = $1::uuid AND mr.member_id = $2::uuid AND jsonb_typeof(r.permissions -> $3::text) = 'array') AS slice`;

/**
 * $1 subdomain, $2 the key's hash (null: no credential), $3 the app namespace (null: not an app route), $4 now (the runtime's clock).
 * $2 is compared as bpchar, its column's type, so that the hash's unique index finds the key (as text, every key of the workspace is read).
 */
const WITH_KEY = asJson(`SELECT ${WORKSPACE_COLUMNS}, c.*, ${INSTALLATION_COLUMNS}, ${ROLES}
  FROM platform.workspaces w
  LEFT JOIN LATERAL (
    SELECT k.id AS key_id, k.full_access, k.scopes, k.last_used_at, m.id AS member_id, m.account_id, m.platform_role, a.email, a.name AS member_name
      FROM ${KEY_SOURCE}
     WHERE k.workspace_id = w.id AND k.secret_hash = $2::bpchar AND ${keyValid('$4::timestamptz')}) c ON true
  LEFT JOIN platform.app_installations i ON i.workspace_id = w.id AND i.app_slug = $3::text
 WHERE w.subdomain = $1::text AND ${WORKSPACE_ACTIVE}`);

/** $1 subdomain, $2 the session token's hash (as bpchar, as for a key), $3 the app namespace (or null), $4 now (the runtime's clock). */
const WITH_SESSION = asJson(`SELECT ${WORKSPACE_COLUMNS}, c.*, ${INSTALLATION_COLUMNS}, ${ROLES}
  FROM platform.workspaces w
  LEFT JOIN LATERAL (
    SELECT s.id AS session_id, s.elevated_until, m.id AS member_id, m.account_id, m.platform_role, a.email, a.name AS member_name
      FROM ${SESSION_SOURCE}
     WHERE s.workspace_id = w.id AND s.token_hash = $2::bpchar AND ${sessionValid('$4::timestamptz')}) c ON true
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
 * The session cookie as sent, read before hapi parses cookies (onRequest). Only a hint: the
 * reading's credentials stand only for the very token the auth scheme presents (hapi's parsed value).
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
  request.app.access = new RequestAccess({ token: usable ? token : null, kind: usable ? kind : null, credentials, namespace, installation, roleIds: row.role_ids, slice: row.slice });
  return workspace;
}
