import { QueryTypes, type Sequelize } from 'sequelize';
import type { Credentials } from './credentials.js';
import { PermissionSet } from './permission-set.js';

/** An app's installation in a workspace, as layer 4 reads it (fresh on every request). */
export interface InstallationView {
  status: 'installed' | 'uninstalled';
  access_policy: 'everyone' | 'roles' | 'approval';
  allowed_roles: string[];
  redlist: string[];
}

/** The one test of "is this app installed here": a row whose status is `installed`. */
export function isInstalled<R extends InstallationView>(row: R | null | undefined): row is R {
  return row?.status === 'installed';
}

/** Which rule of layer 4 decided, with what it compared (the permission explainer words it with role names). */
export type AccessRule =
  | { rule: 'platform_role'; platformRole: 'owner' | 'admin' }
  | { rule: 'redlist'; entry: string; theMember: boolean }
  | { rule: 'everyone' }
  | { rule: 'roles'; policy: 'roles' | 'approval'; memberRoles: string[]; allowedRoles: string[]; match: string | null }
  | { rule: 'scoped_key' };

/** Layer 4's answer: in, or out with the reason (for the log; the caller sees the spec's message) and the rule that decided. */
export type AccessDecision = ({ allowed: true; reason: string } | { allowed: false; reason: string }) & { why?: AccessRule };

/**
 * Where a caller's rights come from. A session and a full-access key read the member's roles
 * (owners and admins hold the universal wildcard); a scoped key reads its scope list only, with
 * no admin bypass. Nothing is cached: each call reads the database.
 */
export interface PermissionSource {
  /** Who this is, for denial logs (`member 1f2e... (session)`). */
  readonly label: string;
  /** Layer 4: may the caller open this installed app? */
  appAccess(namespace: string, installation: InstallationView): Promise<AccessDecision>;
  /** Layer 5: the caller's permissions inside this app (only this app's slice is loaded). */
  appPermissions(namespace: string): Promise<PermissionSet>;
}

/** The member's role ids and one app's slice, as the request's access statement read them (access/request-access.ts). */
export interface PrefetchedRoles {
  namespace: string;
  roleIds: string[];
  slice: string[];
}

/** The member behind a session or a full-access key. */
export class MemberPermissionSource implements PermissionSource {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly member: { id: string; workspaceId: string; platformRole: 'owner' | 'admin' | 'member' },
    readonly label: string,
    /** Read by this request's access statement: used instead of querying again. */
    private readonly prefetched: PrefetchedRoles | null = null,
  ) {}

  private get bypass(): boolean {
    return this.member.platformRole === 'owner' || this.member.platformRole === 'admin';
  }

  /** The ids of the member's custom roles. */
  async roleIds(): Promise<string[]> {
    if (this.prefetched) return this.prefetched.roleIds;
    const rows = await this.sequelize.query<{ role_id: string }>('SELECT role_id FROM platform.member_roles WHERE workspace_id = :workspaceId AND member_id = :memberId', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId: this.member.workspaceId, memberId: this.member.id },
    });
    return rows.map((row) => row.role_id);
  }

  async appAccess(_namespace: string, installation: InstallationView): Promise<AccessDecision> {
    const platformRole = this.member.platformRole;
    if (platformRole === 'owner' || platformRole === 'admin') return { allowed: true, reason: `platform role ${platformRole}`, why: { rule: 'platform_role', platformRole } };
    const roles = await this.roleIds();
    const redlisted = installation.redlist.find((entry) => entry === this.member.id || roles.includes(entry));
    if (redlisted) return { allowed: false, reason: `redlisted (${redlisted === this.member.id ? 'the member' : `role ${redlisted}`})`, why: { rule: 'redlist', entry: redlisted, theMember: redlisted === this.member.id } };
    if (installation.access_policy === 'everyone') return { allowed: true, reason: 'policy everyone', why: { rule: 'everyone' } };
    // `approval` is reserved and behaves as `roles` with an empty list.
    const policy = installation.access_policy;
    const allowed = policy === 'roles' ? installation.allowed_roles : [];
    const match = roles.find((role) => allowed.includes(role));
    const why: AccessRule = { rule: 'roles', policy, memberRoles: roles, allowedRoles: allowed, match: match ?? null };
    if (match) return { allowed: true, reason: `policy roles: role ${match} is allowed`, why };
    return { allowed: false, reason: `policy ${policy}: none of the member's roles (${roles.join(', ') || 'none'}) is allowed (${allowed.join(', ') || 'empty list'})`, why };
  }

  async appPermissions(namespace: string): Promise<PermissionSet> {
    if (this.bypass) return PermissionSet.universal(namespace);
    if (this.prefetched?.namespace === namespace) return PermissionSet.of(namespace, this.prefetched.slice);
    // Only this app's slice leaves the database: `permissions -> :namespace`.
    const rows = await this.sequelize.query<{ slice: unknown }>(
      `SELECT r.permissions -> :namespace AS slice
         FROM platform.member_roles mr
         JOIN platform.roles r ON r.id = mr.role_id AND r.workspace_id = mr.workspace_id
        WHERE mr.workspace_id = :workspaceId AND mr.member_id = :memberId`,
      { type: QueryTypes.SELECT, replacements: { namespace, workspaceId: this.member.workspaceId, memberId: this.member.id } },
    );
    const keys: string[] = [];
    for (const row of rows) if (Array.isArray(row.slice)) keys.push(...(row.slice as string[]));
    return PermissionSet.of(namespace, keys);
  }
}

/** A scoped API key: its scope list is its entire permission set; roles and platform role are not consulted. */
export class ScopedKeyPermissionSource implements PermissionSource {
  constructor(
    private readonly scopes: readonly string[],
    readonly label: string,
  ) {}

  async appAccess(namespace: string): Promise<AccessDecision> {
    const set = PermissionSet.of(namespace, this.scopes);
    return set.holdsAny() ? { allowed: true, reason: 'scoped key holds a key of the app' } : { allowed: false, reason: 'scoped key holds no key of this app' };
  }

  async appPermissions(namespace: string): Promise<PermissionSet> {
    return PermissionSet.of(namespace, this.scopes);
  }
}

/**
 * An app acting for a member (`ctx.platform.request`): the member's rights (roles, platform role,
 * the app's access policy) narrowed to the grant's scopes at layers 4 and 5. Never more than
 * either: an owner's grant holds its scopes only, a scope the member lost is not held.
 */
export class AppGrantPermissionSource implements PermissionSource {
  constructor(
    private readonly member: MemberPermissionSource,
    private readonly scopes: readonly string[],
    readonly label: string,
  ) {}

  async appAccess(namespace: string, installation: InstallationView): Promise<AccessDecision> {
    if (!PermissionSet.of(namespace, this.scopes).holdsAny()) return { allowed: false, reason: 'the app grant holds no key of this app' };
    return this.member.appAccess(namespace, installation);
  }

  async appPermissions(namespace: string): Promise<PermissionSet> {
    return PermissionSet.both(await this.member.appPermissions(namespace), PermissionSet.of(namespace, this.scopes));
  }
}

/** Builds the PermissionSource of a request's credentials. */
export type PermissionSourceFactory = (credentials: Credentials, sequelize: Sequelize, prefetched?: PrefetchedRoles | null) => PermissionSource;

/**
 * Whether the PermissionSource of `credentials` reads the member's roles: not for a scoped key
 * (its scopes are all it holds) nor for owners and admins (their platform role lets them pass).
 */
export function readsRoles(credentials: Credentials): boolean {
  const { member, via } = credentials;
  if (via.kind === 'api_key' && !via.fullAccess) return false;
  return member.platformRole !== 'owner' && member.platformRole !== 'admin';
}

/**
 * The one factory in use: sessions and full-access keys → the member; scoped keys → the scopes;
 * an app grant → the member narrowed to the grant's scopes.
 * (Key expiry and revocation are layer 1's, judged before a source is built.)
 */
export const defaultPermissionSourceFactory: PermissionSourceFactory = (credentials, sequelize, prefetched = null) => {
  const { member, via } = credentials;
  if (via.kind === 'api_key' && !via.fullAccess) return new ScopedKeyPermissionSource(via.scopes, `scoped key ${via.keyId} of member ${member.id}`);
  if (via.kind === 'app_grant') {
    const label = `member ${member.id} (${member.platformRole}, through app ${via.app}${via.note ? ` ${via.note}` : ''})`;
    return new AppGrantPermissionSource(new MemberPermissionSource(sequelize, member, label, prefetched), via.scopes, label);
  }
  const how = via.kind === 'api_key' ? `full-access key ${via.keyId}` : via.kind === 'app_token' ? `app token of ${via.app}` : 'session';
  return new MemberPermissionSource(sequelize, member, `member ${member.id} (${member.platformRole}, ${how})`, prefetched);
};
