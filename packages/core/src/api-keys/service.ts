import { systemClock, type Clock } from '../clock.js';
import { ConflictError, ForbiddenError, INSTANT_RULE, InvalidError, NotFoundError, parseInstant } from '@wpk/sdk';
import { QueryTypes, type Sequelize } from 'sequelize';
import { KEY_SOURCE, MEMBER_ACTIVE, PLATFORM_NAMESPACE, PLATFORM_PERMISSION_KEYS, keyValid, type CallerMember, type Credentials, type PlatformRole } from '../access/index.js';
import { credentialWorkspace, forgetCredentialHashes, recordCredentialHash } from '../db/index.js';
import { generateSecret, hashSecret, secretPrefix } from './secrets.js';

/** Which permission keys a workspace can grant: those of its installed apps, by app namespace. */
export interface ScopeCatalog {
  installedPermissions(workspaceId: string): Promise<Map<string, string[]>>;
}

/** A key as API answers show it. Never the secret. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  full_access: boolean;
  scopes: string[];
  /** `active`, `revoked`, or `expired` (an active key past its expiry). */
  status: 'active' | 'revoked' | 'expired';
  expires_at: string | null;
  never_expires: boolean;
  last_used_at: string | null;
  member: { id: string; name: string; email: string };
  created_at: string;
  updated_at: string;
}

export interface CreateKeyInput {
  name: string;
  full_access?: boolean;
  scopes?: string[];
  expires_at?: string;
  member_id?: string;
}

export interface UpdateKeyInput {
  name?: string;
  full_access?: boolean;
  scopes?: string[];
  status?: 'active' | 'revoked';
  expires_at?: string;
  never_expires?: boolean;
}

export interface RotateKeyInput {
  expires_at?: string;
  never_expires?: boolean;
}

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  full_access: boolean;
  scopes: string[];
  status: 'active' | 'revoked';
  expires_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
  member_id: string;
  member_name: string;
  member_email: string;
  member_role: PlatformRole;
}

const RANK: Record<PlatformRole, number> = { member: 0, admin: 1, owner: 2 };

const SELECT_KEYS = `
  SELECT k.id, k.name, k.prefix, k.full_access, k.scopes, k.status, k.expires_at, k.last_used_at, k.created_at, k.updated_at,
         m.id AS member_id, a.name AS member_name, a.email AS member_email, m.platform_role AS member_role
    FROM platform.api_keys k
    JOIN platform.members m ON m.workspace_id = k.workspace_id AND m.id = k.member_id
    JOIN platform.accounts a ON a.id = m.account_id`;

function present(row: KeyRow, now = new Date()): ApiKeyView {
  const expired = row.expires_at !== null && row.expires_at.getTime() <= now.getTime();
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    full_access: row.full_access,
    scopes: row.full_access ? [] : row.scopes,
    status: row.status === 'revoked' ? 'revoked' : expired ? 'expired' : 'active',
    expires_at: row.expires_at ? row.expires_at.toISOString() : null,
    never_expires: row.expires_at === null,
    last_used_at: row.last_used_at ? row.last_used_at.toISOString() : null,
    member: { id: row.member_id, name: row.member_name, email: row.member_email },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Parses `expires_at` (the platform's instant rule: a day that exists, max 40 characters); it must lie in the future. */
export function parseExpiry(value: string, now = new Date()): Date {
  const instant = parseInstant(value.trim());
  if (!instant) throw new InvalidError(`expires_at ${INSTANT_RULE}`, { field: 'expires_at' });
  if (instant.getTime() <= now.getTime()) throw new InvalidError('expires_at must be in the future', { field: 'expires_at' });
  return instant;
}

/** The expiry an update or rotation asks for: a new instant, null (never), or undefined (unchanged). */
function requestedExpiry(input: { expires_at?: string; never_expires?: boolean }, now: Date): Date | null | undefined {
  if (input.expires_at !== undefined && input.never_expires === true) throw new InvalidError('give either expires_at or never_expires: true, not both');
  if (input.expires_at !== undefined) return parseExpiry(input.expires_at, now);
  if (input.never_expires === true) return null;
  return undefined;
}

/**
 * Workspace API keys: creation, listing, changes, rotation and deletion (all admin-gated by the
 * routes), and the look-up that turns a presented secret into credentials. Every check reads
 * the database: revocation, re-scoping, expiry and deactivation apply on the very next request
 * of every process.
 */
export class ApiKeyService {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly catalog: () => ScopeCatalog | null,
    /** The time key expiry is judged by. */
    private readonly clock: Clock = systemClock,
  ) {}

  private async row(workspaceId: string, keyId: string): Promise<KeyRow> {
    const [row] = await this.sequelize.query<KeyRow>(`${SELECT_KEYS} WHERE k.workspace_id = :workspaceId AND k.id::text = :keyId`, {
      type: QueryTypes.SELECT,
      replacements: { workspaceId, keyId },
    });
    if (!row) throw new NotFoundError(`No API key ${keyId} in this workspace`);
    return row;
  }

  /** An admin manages keys of members up to their own rank: only the owner touches the owner's keys. */
  private assertManageable(actor: CallerMember, ownerRole: PlatformRole): void {
    if (RANK[ownerRole] > RANK[actor.platformRole]) throw new ForbiddenError("Only the workspace owner can manage the owner's API keys");
  }

  /**
   * Checks a scope list against the platform's own keys (`account.*`) and the installed apps'
   * declared keys; returns it de-duplicated.
   */
  private async validateScopes(workspaceId: string, scopes: string[]): Promise<string[]> {
    const unique = [...new Set(scopes)];
    if (unique.length === 0) return unique;
    const installed = (await this.catalog()?.installedPermissions(workspaceId)) ?? new Map<string, string[]>();
    for (const scope of unique) {
      if (scope === `${PLATFORM_NAMESPACE}.*` || PLATFORM_PERMISSION_KEYS.includes(scope)) continue;
      if (scope.startsWith(`${PLATFORM_NAMESPACE}.`)) throw new InvalidError(`scopes: "${scope}" is not a platform permission key (GET /apps/${PLATFORM_NAMESPACE}/access lists them)`, { field: 'scopes' });
      const wildcard = scope.endsWith('.*') ? scope.slice(0, -2) : null;
      const known = wildcard !== null ? installed.has(wildcard) : [...installed.values()].some((keys) => keys.includes(scope));
      if (!known) {
        throw new InvalidError(
          wildcard !== null
            ? `scopes: "${scope}" names no app installed in this workspace`
            : `scopes: "${scope}" is not a permission key declared by an app installed in this workspace`,
          { field: 'scopes' },
        );
      }
    }
    return unique;
  }

  private async audit(workspaceId: string, keyId: string, action: string, actor: CallerMember | null, changes: Record<string, unknown> = {}): Promise<void> {
    await this.sequelize.query('INSERT INTO platform.api_key_audit (workspace_id, key_id, action, actor_member_id, changes) VALUES (:workspaceId, :keyId, :action, :actor, :changes)', {
      replacements: { workspaceId, keyId, action, actor: actor?.id ?? null, changes: JSON.stringify(changes) },
    });
  }

  async list(workspaceId: string, page: { limit: number; offset: number }): Promise<{ rows: ApiKeyView[]; total: number }> {
    const rows = await this.sequelize.query<KeyRow>(`${SELECT_KEYS} WHERE k.workspace_id = :workspaceId ORDER BY k.created_at, k.id LIMIT :limit OFFSET :offset`, {
      type: QueryTypes.SELECT,
      replacements: { workspaceId, ...page },
    });
    const [{ total }] = await this.sequelize.query<{ total: number }>('SELECT count(*)::int AS total FROM platform.api_keys WHERE workspace_id = :workspaceId', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId },
    });
    const now = this.clock();
    return { rows: rows.map((row) => present(row, now)), total };
  }

  async get(workspaceId: string, keyId: string): Promise<ApiKeyView> {
    return present(await this.row(workspaceId, keyId), this.clock());
  }

  /** Creates a key for `member_id` (default: the actor). Returns it with its secret, shown this once. */
  async create(workspaceId: string, actor: CallerMember, input: CreateKeyInput): Promise<{ key: ApiKeyView; secret: string }> {
    const memberId = input.member_id ?? actor.id;
    const [owner] = await this.sequelize.query<{ id: string; platform_role: PlatformRole }>(
      `SELECT id, platform_role FROM platform.members m WHERE workspace_id = :workspaceId AND id::text = :memberId AND ${MEMBER_ACTIVE}`,
      { type: QueryTypes.SELECT, replacements: { workspaceId, memberId } },
    );
    if (!owner) throw new InvalidError(`member_id: ${memberId} is not an active member of this workspace`, { field: 'member_id' });
    this.assertManageable(actor, owner.platform_role);
    const fullAccess = input.full_access ?? false;
    if (fullAccess && input.scopes && input.scopes.length > 0) throw new InvalidError('scopes apply only to a scoped key (full_access: false)', { field: 'scopes' });
    const scopes = fullAccess ? [] : await this.validateScopes(workspaceId, input.scopes ?? []);
    const expiresAt = input.expires_at === undefined ? null : parseExpiry(input.expires_at, this.clock());
    const secret = generateSecret();
    await recordCredentialHash(this.sequelize, hashSecret(secret), 'api_key', workspaceId, null);
    const [{ id }] = await this.sequelize.query<{ id: string }>(
      `INSERT INTO platform.api_keys (workspace_id, member_id, name, prefix, secret_hash, full_access, scopes, expires_at, created_by)
       VALUES (:workspaceId, :memberId, :name, :prefix, :hash, :fullAccess, :scopes, :expiresAt, :actor) RETURNING id`,
      {
        type: QueryTypes.SELECT,
        replacements: { workspaceId, memberId: owner.id, name: input.name, prefix: secretPrefix(secret), hash: hashSecret(secret), fullAccess, scopes: JSON.stringify(scopes), expiresAt, actor: actor.id },
      },
    );
    await this.audit(workspaceId, id, 'created', actor, { name: input.name, full_access: fullAccess, scopes, expires_at: expiresAt, member_id: owner.id });
    return { key: await this.get(workspaceId, id), secret };
  }

  /** Renames, re-scopes, sets or clears the expiry, or revokes. */
  async update(workspaceId: string, actor: CallerMember, keyId: string, input: UpdateKeyInput): Promise<ApiKeyView> {
    const current = await this.row(workspaceId, keyId);
    this.assertManageable(actor, current.member_role);
    if (input.status === 'active' && current.status === 'revoked') throw new ConflictError('A revoked key cannot be made active again: create a new key');
    const fullAccess = input.full_access ?? current.full_access;
    if (fullAccess && input.scopes && input.scopes.length > 0) throw new InvalidError('scopes apply only to a scoped key (full_access: false)', { field: 'scopes' });
    const changes: Record<string, unknown> = {};
    const sets: string[] = [];
    const replacements: Record<string, unknown> = { workspaceId, keyId: current.id };
    if (input.name !== undefined && input.name !== current.name) {
      sets.push('name = :name');
      replacements.name = changes.name = input.name;
    }
    if (input.full_access !== undefined && input.full_access !== current.full_access) {
      sets.push('full_access = :fullAccess');
      replacements.fullAccess = changes.full_access = input.full_access;
    }
    if (input.scopes !== undefined || (input.full_access === true && current.scopes.length > 0)) {
      const scopes = fullAccess ? [] : await this.validateScopes(workspaceId, input.scopes ?? current.scopes);
      sets.push('scopes = :scopes');
      replacements.scopes = JSON.stringify(scopes);
      changes.scopes = scopes;
    }
    const expiry = requestedExpiry(input, this.clock());
    if (expiry !== undefined) {
      sets.push('expires_at = :expiresAt');
      replacements.expiresAt = changes.expires_at = expiry;
    }
    if (input.status === 'revoked' && current.status !== 'revoked') {
      sets.push(`status = 'revoked'`);
      changes.status = 'revoked';
    }
    if (sets.length > 0) {
      await this.sequelize.query(`UPDATE platform.api_keys SET ${sets.join(', ')}, updated_at = now() WHERE workspace_id = :workspaceId AND id = :keyId`, { replacements });
      await this.audit(workspaceId, current.id, changes.status === 'revoked' ? 'revoked' : 'updated', actor, changes);
    }
    return this.get(workspaceId, current.id);
  }

  /** A new secret for the same key; the old one stops working at once. */
  async rotate(workspaceId: string, actor: CallerMember, keyId: string, input: RotateKeyInput): Promise<{ key: ApiKeyView; secret: string }> {
    const current = await this.row(workspaceId, keyId);
    this.assertManageable(actor, current.member_role);
    if (current.status === 'revoked') throw new ConflictError('A revoked key cannot be rotated: create a new key');
    const expiry = requestedExpiry(input, this.clock());
    const secret = generateSecret();
    await recordCredentialHash(this.sequelize, hashSecret(secret), 'api_key', workspaceId, null);
    const [old] = await this.sequelize.query<{ secret_hash: string }>(
      `UPDATE platform.api_keys k SET prefix = :prefix, secret_hash = :hash, expires_at = ${expiry === undefined ? 'k.expires_at' : ':expiresAt'}, updated_at = now()
         FROM (SELECT secret_hash FROM platform.api_keys WHERE workspace_id = :workspaceId AND id = :keyId FOR UPDATE) o
        WHERE k.workspace_id = :workspaceId AND k.id = :keyId
        RETURNING o.secret_hash`,
      { type: QueryTypes.SELECT, replacements: { workspaceId, keyId: current.id, prefix: secretPrefix(secret), hash: hashSecret(secret), expiresAt: expiry ?? null } },
    );
    if (old) await forgetCredentialHashes(this.sequelize, [old.secret_hash]);
    await this.audit(workspaceId, current.id, 'rotated', actor, expiry === undefined ? {} : { expires_at: expiry });
    return { key: await this.get(workspaceId, current.id), secret };
  }

  /** Removes the key and its audit trail. */
  async remove(workspaceId: string, actor: CallerMember, keyId: string): Promise<void> {
    const current = await this.row(workspaceId, keyId);
    this.assertManageable(actor, current.member_role);
    const gone = await this.sequelize.query<{ secret_hash: string }>('DELETE FROM platform.api_keys WHERE workspace_id = :workspaceId AND id = :keyId RETURNING secret_hash', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId, keyId: current.id },
    });
    await forgetCredentialHashes(this.sequelize, gone.map((row) => row.secret_hash));
  }

  /**
   * The credentials a presented secret stands for, or null when it is unknown, revoked, expired,
   * or its member is deactivated or not joined. Never cached. The key's workspace comes from the
   * coordinator's credential directory (`platform.credential_hashes`), then the key is judged
   * within that workspace, so no statement reads keys across workspaces (docs/scale-out.md).
   */
  async authenticate(secret: string): Promise<Credentials | null> {
    const hash = hashSecret(secret);
    const owner = await credentialWorkspace(this.sequelize, hash);
    if (!owner || owner.kind !== 'api_key') return null;
    const [row] = await this.sequelize.query<{
      id: string;
      workspace_id: string;
      full_access: boolean;
      scopes: string[];
      last_used_at: Date | null;
      member_id: string;
      account_id: string;
      platform_role: PlatformRole;
      email: string;
      name: string;
    }>(
      `SELECT k.id, k.workspace_id, k.full_access, k.scopes, k.last_used_at, m.id AS member_id, m.account_id, m.platform_role, a.email, a.name
         FROM ${KEY_SOURCE}
        WHERE k.workspace_id = $3 AND k.secret_hash = $1 AND ${keyValid('$2')}`,
      { type: QueryTypes.SELECT, bind: [hash, this.clock(), owner.workspaceId] },
    );
    if (!row) return null;
    return {
      member: { id: row.member_id, workspaceId: row.workspace_id, accountId: row.account_id, platformRole: row.platform_role, email: row.email, name: row.name },
      via: { kind: 'api_key', keyId: row.id, fullAccess: row.full_access, scopes: row.full_access ? [] : row.scopes, lastUsedAt: row.last_used_at },
    };
  }

  /** Whether a use at `now` moves the key's last-used stamp (kept to the minute): touch() writes only then. */
  touchDue(lastUsedAt: Date | null, now = new Date()): boolean {
    return !lastUsedAt || lastUsedAt.getTime() < Math.floor(now.getTime() / 60_000) * 60_000;
  }

  /**
   * Records use at one-minute resolution: at most one write per key per minute, whichever
   * process serves it (the condition is in the UPDATE itself).
   */
  async touch(workspaceId: string, keyId: string, lastUsedAt: Date | null, now = new Date()): Promise<void> {
    if (!this.touchDue(lastUsedAt, now)) return;
    await this.sequelize.query(
      `UPDATE platform.api_keys SET last_used_at = date_trunc('minute', now())
        WHERE workspace_id = $1 AND id = $2 AND (last_used_at IS NULL OR last_used_at < date_trunc('minute', now()))`,
      { bind: [workspaceId, keyId] },
    );
  }

  /**
   * A full-access key for a member, for the CLI (`wpk workspace create --json`). With `replace`,
   * the member's earlier keys of the same name are deleted first (`wpk dev` prints a fresh key
   * at every start without piling up old ones).
   */
  async issueFullAccessKey(workspaceId: string, memberId: string, name: string, options: { replace?: boolean } = {}): Promise<{ key: ApiKeyView; secret: string }> {
    if (options.replace) {
      const gone = await this.sequelize.query<{ secret_hash: string }>('DELETE FROM platform.api_keys WHERE workspace_id = :workspaceId AND member_id = :memberId AND name = :name RETURNING secret_hash', {
        type: QueryTypes.SELECT,
        replacements: { workspaceId, memberId, name },
      });
      await forgetCredentialHashes(this.sequelize, gone.map((row) => row.secret_hash));
    }
    const [member] = await this.sequelize.query<{ id: string; account_id: string; platform_role: PlatformRole }>(
      'SELECT id, account_id, platform_role FROM platform.members WHERE workspace_id = :workspaceId AND id = :memberId',
      { type: QueryTypes.SELECT, replacements: { workspaceId, memberId } },
    );
    if (!member) throw new NotFoundError(`No member ${memberId} in this workspace`);
    const actor: CallerMember = { id: member.id, workspaceId, accountId: member.account_id, platformRole: member.platform_role, email: '', name: '' };
    return this.create(workspaceId, actor, { name, full_access: true });
  }

  /** A full-access key for the workspace's owner (the demo owner's key of `wpk dev`). */
  async issueOwnerKey(workspaceId: string, name: string, options: { replace?: boolean } = {}): Promise<{ key: ApiKeyView; secret: string }> {
    const [owner] = await this.sequelize.query<{ id: string }>(`SELECT id FROM platform.members WHERE workspace_id = :workspaceId AND platform_role = 'owner'`, {
      type: QueryTypes.SELECT,
      replacements: { workspaceId },
    });
    if (!owner) throw new NotFoundError(`Workspace ${workspaceId} has no owner`);
    return this.issueFullAccessKey(workspaceId, owner.id, name, options);
  }
}
