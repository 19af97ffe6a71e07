import { createHash } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { hotRows, statement } from '../db/index.js';
import { KEY_SOURCE, SESSION_SOURCE, WORKSPACE_ACTIVE, defaultPermissionSourceFactory, isInstalled, keyValid, sessionValid, type Credentials, type InstallationView, type PermissionSet, type PlatformRole } from '../access/index.js';

/** The credential a socket was opened with, kept to judge it again at every event. */
export interface LiveCredential {
  /** `session_id`: a socket opened with an app's token, judged by the session the token stands on. */
  kind: 'api_key' | 'session' | 'session_id';
  /** sha256 of the secret (the key or the session cookie's value): what the database stores; the session's id for `session_id`. */
  hash: string;
  /** Set for a socket opened with an app's token: the only app whose channels and sessions it may join. */
  app?: string;
}

/** The member behind a credential, as judged. */
export interface LiveMember {
  id: string;
  name: string;
  email: string;
  platformRole: PlatformRole;
}

/** What one judgement found for one credential. */
export type LiveVerdict = { allowed: true; member: LiveMember; permissions: PermissionSet | null } | { allowed: false; layer: 1 | 2 | 4 | 5; reason: string };

/** What an app channel asks of a subscriber besides layers 1-2: the app's access (layer 4) and one permission (layer 5). */
export interface ChannelGate {
  namespace: string;
  /** The permission key the channel kind declares (`chat.messages.read`). */
  permission: string;
}

export const hashSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/**
 * One statement for any number of credentials of one workspace: each credential is judged as the
 * request path judges it (layer 1: the key active and unexpired, or the session unexpired with its
 * account's current stamp; layer 2: the member joined and active in this workspace), with the
 * member's role ids and the app's slice, plus the app's installation. $1 workspace id, $2 kinds,
 * $3 hashes, $4 now (the runtime's clock), $5 the app namespace (null: no app). A hash is compared
 * as bpchar, the type of its column, so that the hash's unique index finds it (as text, every key
 * or session of the workspace is read).
 */
export const JUDGE = statement(`
SELECT t.ord::int AS ord, c.member_id, c.platform_role, c.member_name, c.email, c.full_access, c.scopes,
       CASE WHEN c.member_id IS NULL THEN NULL ELSE ARRAY(
         SELECT mr.role_id::text FROM platform.member_roles mr WHERE mr.workspace_id = $1::uuid AND mr.member_id = c.member_id) END AS role_ids,
       CASE WHEN c.member_id IS NULL OR $5::text IS NULL THEN NULL ELSE ARRAY(
         SELECT jsonb_array_elements_text(r.permissions -> $5::text)
           FROM platform.member_roles mr JOIN platform.roles r ON r.workspace_id = mr.workspace_id AND r.id = mr.role_id
          WHERE mr.workspace_id = $1::uuid AND mr.member_id = c.member_id AND jsonb_typeof(r.permissions -> $5::text) = 'array') END AS slice,
       i.status AS i_status, i.access_policy AS i_access_policy, i.allowed_roles AS i_allowed_roles, i.redlist AS i_redlist
  FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(kind, hash, ord)
  JOIN platform.workspaces w ON w.id = $1::uuid AND ${WORKSPACE_ACTIVE}
  LEFT JOIN LATERAL (
    SELECT m.id AS member_id, m.platform_role, a.name AS member_name, a.email, k.full_access, k.scopes
      FROM ${KEY_SOURCE}
     WHERE t.kind = 'api_key' AND k.workspace_id = $1::uuid AND k.secret_hash = t.hash::bpchar AND ${keyValid('$4::timestamptz')}
    UNION ALL
    SELECT m.id, m.platform_role, a.name, a.email, NULL, NULL
      FROM ${SESSION_SOURCE}
     WHERE t.kind = 'session' AND s.workspace_id = $1::uuid AND s.token_hash = t.hash::bpchar AND ${sessionValid('$4::timestamptz')}
    UNION ALL
    SELECT m.id, m.platform_role, a.name, a.email, NULL, NULL
      FROM ${SESSION_SOURCE}
     WHERE t.kind = 'session_id' AND s.workspace_id = $1::uuid AND s.id::text = t.hash AND ${sessionValid('$4::timestamptz')}
  ) c ON true
  LEFT JOIN platform.app_installations i ON i.workspace_id = $1::uuid AND i.app_slug = $5::text
 ORDER BY t.ord`);

interface JudgeRow {
  ord: number;
  member_id: string | null;
  platform_role: PlatformRole | null;
  member_name: string | null;
  email: string | null;
  full_access: boolean | null;
  scopes: string[] | null;
  role_ids: string[] | null;
  slice: string[] | null;
  i_status: InstallationView['status'] | null;
  i_access_policy: InstallationView['access_policy'] | null;
  i_allowed_roles: string[] | null;
  i_redlist: string[] | null;
}

/**
 * Judges credentials of one workspace through layers 1 and 2, and with `gate` layers 4 and 5 of
 * that app: one database round trip for all of them, nothing cached. The rules are the request
 * path's own (access/permission-source.ts): owners and admins pass, a scoped key holds only its
 * scopes, a redlisted member or role is out.
 */
export async function judgeCredentials(sequelize: Sequelize, workspaceId: string, credentials: readonly LiveCredential[], now: Date, gate: ChannelGate | null): Promise<LiveVerdict[]> {
  if (credentials.length === 0) return [];
  const rows = await hotRows<JudgeRow>(
    sequelize,
    JUDGE,
    [workspaceId, credentials.map((credential) => credential.kind), credentials.map((credential) => credential.hash), now.toISOString(), gate?.namespace ?? null],
    null,
  );
  const verdicts: LiveVerdict[] = credentials.map(() => ({ allowed: false, layer: 1, reason: 'workspace not active' }));
  for (const row of rows) {
    const index = row.ord - 1;
    if (row.member_id === null) {
      verdicts[index] = { allowed: false, layer: 1, reason: 'credential invalid, revoked or expired, or not of a joined member of this workspace' };
      continue;
    }
    const member: LiveMember = { id: row.member_id, name: row.member_name ?? '', email: row.email ?? '', platformRole: row.platform_role! };
    if (!gate) {
      verdicts[index] = { allowed: true, member, permissions: null };
      continue;
    }
    const credential = credentials[index];
    const caller: Credentials = {
      member: { id: row.member_id, workspaceId, accountId: '', platformRole: member.platformRole, email: member.email, name: member.name },
      via: credential.kind === 'api_key' ? { kind: 'api_key', keyId: '', fullAccess: row.full_access === true, scopes: row.scopes ?? [] } : { kind: 'session', sessionId: '', elevatedUntil: null },
    };
    const source = defaultPermissionSourceFactory(caller, sequelize, { namespace: gate.namespace, roleIds: row.role_ids ?? [], slice: row.slice ?? [] });
    const installation: InstallationView | null =
      row.i_status === null ? null : { status: row.i_status, access_policy: row.i_access_policy!, allowed_roles: row.i_allowed_roles ?? [], redlist: row.i_redlist ?? [] };
    if (!isInstalled(installation)) {
      verdicts[index] = { allowed: false, layer: 4, reason: 'app not installed' };
      continue;
    }
    const decision = await source.appAccess(gate.namespace, installation);
    if (!decision.allowed) {
      verdicts[index] = { allowed: false, layer: 4, reason: decision.reason };
      continue;
    }
    const permissions = await source.appPermissions(gate.namespace);
    verdicts[index] = permissions.has(gate.permission) ? { allowed: true, member, permissions } : { allowed: false, layer: 5, reason: `Missing permission: ${gate.permission}` };
  }
  return verdicts;
}
