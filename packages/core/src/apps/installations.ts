import { ConflictError, InvalidError, isUuid, NotFoundError } from '@wpk/sdk';
import { jsonSchemaProblems } from '@wpk/sdk/tooling';
import { QueryTypes, type Sequelize } from 'sequelize';
import { isInstalled, type PrefetchedInstallation } from '../access/index.js';
import type { LoadedApp } from './loader.js';

/** An installation row (the same columns the request's access statement reads). */
export type InstallationRow = PrefetchedInstallation;

/** The access policy as PUT /applications/{slug}/access and installation take it. */
export interface AccessPolicyInput {
  access_policy: 'everyone' | 'roles' | 'approval';
  allowed_roles?: string[];
  redlist?: string[];
}

/** A role as the permission matrix shows it. */
export interface RoleSlice {
  id: string;
  name: string;
  /** The role's slice for the app, as stored (wildcards unexpanded). */
  permissions: string[];
}

/** Something that runs SQL with positional parameters: a pg client or pool (the broker's connection). */
export interface SqlClient {
  query(sql: string, params: unknown[]): Promise<{ rows: unknown[] }>;
}

// "Which apps are installed in this workspace": the one query, for Sequelize and raw pg alike.
const INSTALLED_APPS = "SELECT app_slug FROM platform.app_installations WHERE workspace_id = $1 AND status = 'installed'";

const COLUMNS = 'workspace_id, app_slug, status, access_policy, allowed_roles, redlist, settings, installed_by, installed_at, uninstalled_by, uninstalled_at';

/**
 * Installations, access policies, settings and role slices, one app at a time. Every method
 * reads and writes inside the caller's transaction (Sequelize CLS).
 */
export class InstallationService {
  constructor(private readonly sequelize: Sequelize) {}

  /** The installation row, or null when the app was never installed in the workspace. */
  async find(workspaceId: string, namespace: string): Promise<InstallationRow | null> {
    const rows = await this.sequelize.query<InstallationRow>(`SELECT ${COLUMNS} FROM platform.app_installations WHERE workspace_id = :workspaceId AND app_slug = :namespace`, {
      type: QueryTypes.SELECT,
      replacements: { workspaceId, namespace },
    });
    return rows[0] ?? null;
  }

  /** Every installation row of the workspace (installed or not), by app namespace, in one statement. */
  async findAll(workspaceId: string): Promise<Map<string, InstallationRow>> {
    const rows = await this.sequelize.query<InstallationRow>(`SELECT ${COLUMNS} FROM platform.app_installations WHERE workspace_id = :workspaceId`, {
      type: QueryTypes.SELECT,
      replacements: { workspaceId },
    });
    return new Map(rows.map((row) => [row.app_slug, row]));
  }

  /** The namespaces of the apps installed in the workspace. */
  async installedApps(workspaceId: string): Promise<string[]> {
    const rows = await this.sequelize.query<{ app_slug: string }>(INSTALLED_APPS, { type: QueryTypes.SELECT, bind: [workspaceId] });
    return rows.map((row) => row.app_slug);
  }

  /** Which of `namespaces` are installed in the workspace, read through `client` (outside Sequelize). */
  static async installedAmong(client: SqlClient, workspaceId: string, namespaces: string[]): Promise<Set<string>> {
    const { rows } = await client.query(`${INSTALLED_APPS} AND app_slug = ANY($2)`, [workspaceId, namespaces]);
    return new Set((rows as Array<{ app_slug: string }>).map((row) => row.app_slug));
  }

  /** The workspaces where the app is installed. */
  async workspacesWith(namespace: string): Promise<string[]> {
    const rows = await this.sequelize.query<{ workspace_id: string }>("SELECT workspace_id FROM platform.app_installations WHERE app_slug = :namespace AND status = 'installed'", {
      type: QueryTypes.SELECT,
      replacements: { namespace },
    });
    return rows.map((row) => row.workspace_id);
  }

  /** Refuses role ids that are not roles of this workspace (400 naming the entry). */
  async assertRoles(workspaceId: string, roleIds: string[], field = 'allowed_roles'): Promise<void> {
    // Role ids are UUIDs: any other string names no role (and must not reach the uuid column).
    const candidates = roleIds.filter(isUuid);
    if (roleIds.length === 0) return;
    const rows = candidates.length === 0 ? [] : await this.sequelize.query<{ id: string }>('SELECT id::text AS id FROM platform.roles WHERE workspace_id = :workspaceId AND id IN (:candidates)', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId, candidates },
    });
    const known = new Set(rows.map((row) => row.id));
    const index = roleIds.findIndex((id) => !known.has(id.toLowerCase()));
    if (index >= 0) throw new InvalidError(`${field}[${index}]: no role ${roleIds[index]} in this workspace`);
  }

  /** Installs (or reinstalls) the app. A fresh install defaults to policy `roles` with no roles. */
  async install(workspaceId: string, app: LoadedApp, policy: AccessPolicyInput, by: string): Promise<InstallationRow> {
    const existing = await this.find(workspaceId, app.namespace);
    if (isInstalled(existing)) throw new ConflictError(`App ${app.namespace} is already installed`);
    const allowed = policy.access_policy === 'everyone' ? [] : dedupe(policy.allowed_roles ?? []);
    await this.assertRoles(workspaceId, allowed);
    const replacements = { workspaceId, namespace: app.namespace, policy: policy.access_policy, allowed: JSON.stringify(allowed), by };
    // A reinstall keeps the settings saved before; the access policy starts over as given.
    const rows = await this.sequelize.query<InstallationRow>(
      `INSERT INTO platform.app_installations (workspace_id, app_slug, status, access_policy, allowed_roles, redlist, installed_by, installed_at)
       VALUES (:workspaceId, :namespace, 'installed', :policy, CAST(:allowed AS jsonb), '[]', :by, now())
       ON CONFLICT (workspace_id, app_slug) DO UPDATE SET status = 'installed', access_policy = EXCLUDED.access_policy, allowed_roles = EXCLUDED.allowed_roles,
         redlist = '[]', installed_by = EXCLUDED.installed_by, installed_at = now(), uninstalled_by = NULL, uninstalled_at = NULL, updated_at = now()
       RETURNING ${COLUMNS}`,
      { type: QueryTypes.SELECT, replacements },
    );
    return rows[0];
  }

  /** Uninstalls: the app closes for everyone; its data, settings and role slices stay for a reinstall. */
  async uninstall(workspaceId: string, app: LoadedApp, by: string): Promise<InstallationRow> {
    const rows = await this.sequelize.query<InstallationRow>(
      `UPDATE platform.app_installations SET status = 'uninstalled', uninstalled_by = :by, uninstalled_at = now(), updated_at = now()
        WHERE workspace_id = :workspaceId AND app_slug = :namespace AND status = 'installed' RETURNING ${COLUMNS}`,
      { type: QueryTypes.SELECT, replacements: { workspaceId, namespace: app.namespace, by } },
    );
    if (rows.length === 0) throw new ConflictError(`App ${app.namespace} is not installed`);
    return rows[0];
  }

  /** The installed app's row, or 409 when it is not installed. */
  async requireInstalled(workspaceId: string, app: LoadedApp): Promise<InstallationRow> {
    const row = await this.find(workspaceId, app.namespace);
    if (!isInstalled(row)) throw new ConflictError(`App ${app.namespace} is not installed`);
    return row;
  }

  /** Replaces the access policy. `everyone` clears `allowed_roles`; omitted lists are empty (PUT replaces). */
  async setAccess(workspaceId: string, app: LoadedApp, policy: AccessPolicyInput): Promise<InstallationRow> {
    await this.requireInstalled(workspaceId, app);
    const allowed = policy.access_policy === 'everyone' ? [] : dedupe(policy.allowed_roles ?? []);
    await this.assertRoles(workspaceId, allowed);
    const rows = await this.sequelize.query<InstallationRow>(
      `UPDATE platform.app_installations SET access_policy = :policy, allowed_roles = CAST(:allowed AS jsonb), redlist = CAST(:redlist AS jsonb), updated_at = now()
        WHERE workspace_id = :workspaceId AND app_slug = :namespace RETURNING ${COLUMNS}`,
      { type: QueryTypes.SELECT, replacements: { workspaceId, namespace: app.namespace, policy: policy.access_policy, allowed: JSON.stringify(allowed), redlist: JSON.stringify(dedupe(policy.redlist ?? [])) } },
    );
    return rows[0];
  }

  /** The effective settings: the saved document, else the manifest's defaults, else `{}`. */
  effectiveSettings(app: LoadedApp, row: Pick<InstallationRow, 'settings'> | null): Record<string, unknown> {
    return structuredClone(row?.settings ?? app.manifest.settings?.defaults ?? {});
  }

  /** Saves the whole settings document after validating it against the app's schema (400 naming each failing path). */
  async putSettings(workspaceId: string, app: LoadedApp, document: Record<string, unknown>): Promise<Record<string, unknown>> {
    const schema = app.manifest.settings?.schema;
    if (!schema) throw new InvalidError(`App ${app.namespace} declares no settings`);
    await this.requireInstalled(workspaceId, app);
    const problems = jsonSchemaProblems(schema, document);
    if (problems.length > 0) throw new InvalidError(problems.map((problem) => `${problem.path || 'settings'}: ${problem.message}`).join('; '));
    await this.sequelize.query('UPDATE platform.app_installations SET settings = CAST(:settings AS jsonb), updated_at = now() WHERE workspace_id = :workspaceId AND app_slug = :namespace', {
      replacements: { workspaceId, namespace: app.namespace, settings: JSON.stringify(document) },
    });
    return document;
  }

  /** Every role of the workspace with its slice for the app. */
  async roleSlices(workspaceId: string, namespace: string): Promise<RoleSlice[]> {
    const rows = await this.sequelize.query<{ id: string; name: string; slice: unknown }>(
      'SELECT id, name, permissions -> :namespace AS slice FROM platform.roles WHERE workspace_id = :workspaceId ORDER BY lower(name), id',
      { type: QueryTypes.SELECT, replacements: { workspaceId, namespace } },
    );
    return rows.map((row) => ({ id: row.id, name: row.name, permissions: Array.isArray(row.slice) ? (row.slice as string[]) : [] }));
  }

  /**
   * Replaces one app's slice of a role; other apps' slices are untouched. Every key must be
   * declared by the app or be `{namespace}.*`. An empty list removes the slice.
   */
  async setRoleSlice(workspaceId: string, app: LoadedApp, roleId: string, keys: string[]): Promise<{ role: { id: string; name: string }; permissions: string[]; previous: string[] }> {
    keys.forEach((key, index) => {
      if (key !== `${app.namespace}.*` && !app.declaredKeys.includes(key)) throw new InvalidError(`permissions[${index}]: "${key}" is not a permission of app ${app.namespace} (declared keys or ${app.namespace}.*)`);
    });
    const unique = dedupe(keys);
    if (!isUuid(roleId)) throw new NotFoundError(`No role ${roleId} in this workspace`);
    const rows = await this.sequelize.query<{ id: string; name: string; previous: unknown }>(
      `UPDATE platform.roles r
          SET permissions = CASE WHEN :empty THEN r.permissions - CAST(:namespace AS text) ELSE jsonb_set(r.permissions, ARRAY[CAST(:namespace AS text)], CAST(:slice AS jsonb)) END,
              updated_at = now()
         FROM (SELECT id, permissions -> :namespace AS previous FROM platform.roles WHERE id = :roleId AND workspace_id = :workspaceId FOR UPDATE) old
        WHERE r.workspace_id = :workspaceId AND r.id = old.id
        RETURNING r.id, r.name, old.previous`,
      { type: QueryTypes.SELECT, replacements: { workspaceId, roleId, namespace: app.namespace, slice: JSON.stringify(unique), empty: unique.length === 0 } },
    );
    if (rows.length === 0) throw new NotFoundError(`No role ${roleId} in this workspace`);
    return { role: { id: rows[0].id, name: rows[0].name }, permissions: unique, previous: Array.isArray(rows[0].previous) ? (rows[0].previous as string[]) : [] };
  }

  /** Records an install or access request. */
  async recordRequest(workspaceId: string, namespace: string, kind: 'install' | 'access', memberId: string, message: string | null): Promise<{ id: string; created_at: Date }> {
    const rows = await this.sequelize.query<{ id: string; created_at: Date }>(
      `INSERT INTO platform.app_requests (workspace_id, app_slug, kind, member_id, message) VALUES (:workspaceId, :namespace, :kind, :memberId, :message) RETURNING id, created_at`,
      { type: QueryTypes.SELECT, replacements: { workspaceId, namespace, kind, memberId, message } },
    );
    return rows[0];
  }
}

function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}
