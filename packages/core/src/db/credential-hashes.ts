import { QueryTypes, type Sequelize } from 'sequelize';

/**
 * `platform.credential_hashes`, the coordinator-only directory of credentials (docs/scale-out.md):
 * which workspace a session's or API key's SHA-256 belongs to, so a credential presented on any
 * host can be told apart as "another workspace's" (403) or "unknown" (401) without searching every
 * workspace's rows, and so that a hash stays unique across workspaces once the tenant tables only
 * keep it unique within one. A row says nothing about validity: the credential is judged on its
 * own row, in its workspace. Rows of ended sessions stay until a day after the session would have
 * expired (`pruneCredentialHashes`); a deleted or rotated key's row goes with it.
 */
export type CredentialKind = 'session' | 'api_key';

/** Records a new credential's hash (inside the transaction that creates the credential). */
export async function recordCredentialHash(sequelize: Sequelize, hash: string, kind: CredentialKind, workspaceId: string, expiresAt: Date | null): Promise<void> {
  await sequelize.query(
    `INSERT INTO platform.credential_hashes (hash, kind, workspace_id, expires_at) VALUES ($1, $2, $3::uuid, $4::timestamptz)
     ON CONFLICT (hash) DO UPDATE SET kind = EXCLUDED.kind, workspace_id = EXCLUDED.workspace_id, expires_at = EXCLUDED.expires_at`,
    { bind: [hash, kind, workspaceId, expiresAt ? expiresAt.toISOString() : null] },
  );
}

/** Forgets hashes of credentials that no longer exist (a deleted or rotated key). */
export async function forgetCredentialHashes(sequelize: Sequelize, hashes: string[]): Promise<void> {
  if (hashes.length === 0) return;
  await sequelize.query('DELETE FROM platform.credential_hashes WHERE hash = ANY($1::char(64)[])', { bind: [hashes] });
}

/** The workspace and kind a hash was issued for, or null when it was never issued (or is long gone). */
export async function credentialWorkspace(sequelize: Sequelize, hash: string): Promise<{ workspaceId: string; kind: CredentialKind } | null> {
  const [row] = await sequelize.query<{ workspace_id: string; kind: CredentialKind }>('SELECT workspace_id, kind FROM platform.credential_hashes WHERE hash = $1', { type: QueryTypes.SELECT, bind: [hash] });
  return row ? { workspaceId: row.workspace_id, kind: row.kind } : null;
}

/** Drops the rows of sessions that expired more than a day ago (their sessions are pruned too). */
export async function pruneCredentialHashes(sequelize: Sequelize): Promise<number> {
  const [row] = await sequelize.query<{ n: number }>(
    `WITH gone AS (DELETE FROM platform.credential_hashes WHERE expires_at < now() - interval '1 day' RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    { type: QueryTypes.SELECT },
  );
  return row.n;
}
