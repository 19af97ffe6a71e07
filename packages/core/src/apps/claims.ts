import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';

const KIND = /^[a-z][a-z0-9_-]{0,39}$/;

function checkName(namespace: string, kind: string, name: string): void {
  if (typeof kind !== 'string' || !KIND.test(kind)) throw new TypeError(`${namespace}: a claim's kind is 1-40 lower-case letters, digits, - or _ (got ${JSON.stringify(String(kind).slice(0, 60))})`);
  if (typeof name !== 'string' || name.length === 0 || name.length > 300) throw new TypeError(`${namespace}: a claimed name is 1-300 characters`);
}

/**
 * Takes `name` of `kind` for the workspace in `transaction` (platform.name_claims, one holder per
 * app, kind and name across the platform). A concurrent taker waits on the row until this
 * transaction ends, then finds it held. True when the workspace holds it.
 */
export async function takeClaim(sequelize: Sequelize, transaction: Transaction, claim: { app: string; workspaceId: string; kind: string; name: string }): Promise<boolean> {
  checkName(claim.app, claim.kind, claim.name);
  const replacements = { app: claim.app, kind: claim.kind, name: claim.name, ws: claim.workspaceId };
  await sequelize.query('INSERT INTO platform.name_claims (app, kind, name, workspace_id) VALUES (:app, :kind, :name, :ws) ON CONFLICT (app, kind, name) DO NOTHING', { transaction, replacements });
  const [row] = await sequelize.query<{ workspace_id: string }>('SELECT workspace_id FROM platform.name_claims WHERE app = :app AND kind = :kind AND name = :name', { transaction, replacements, type: QueryTypes.SELECT });
  return row?.workspace_id === claim.workspaceId;
}

/** Releases `name` of `kind` if the workspace holds it. */
export async function releaseClaim(sequelize: Sequelize, transaction: Transaction, claim: { app: string; workspaceId: string; kind: string; name: string }): Promise<void> {
  checkName(claim.app, claim.kind, claim.name);
  await sequelize.query('DELETE FROM platform.name_claims WHERE app = :app AND kind = :kind AND name = :name AND workspace_id = :ws', { transaction, replacements: { app: claim.app, kind: claim.kind, name: claim.name, ws: claim.workspaceId } });
}

/** The workspace holding `name` of `kind` for the app, or null. */
export async function claimant(sequelize: Sequelize, claim: { app: string; kind: string; name: string }): Promise<string | null> {
  checkName(claim.app, claim.kind, claim.name);
  const [row] = await sequelize.query<{ workspace_id: string }>('SELECT workspace_id FROM platform.name_claims WHERE app = :app AND kind = :kind AND name = :name', { replacements: claim, type: QueryTypes.SELECT });
  return row?.workspace_id ?? null;
}
