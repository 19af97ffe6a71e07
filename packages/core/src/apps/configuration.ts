import { InvalidError, memberMrn, type ConfigurationChange, type ConfigurationPlan, type ConfiguredApp, type PlatformConfiguration, type WorkspaceConfiguration } from '@wpk/sdk';
import { jsonSchemaProblems } from '@wpk/sdk/tooling';
import { QueryTypes, type Sequelize } from 'sequelize';
import { isInstalled, requireRole, type CallerMember, type Credentials } from '../access/index.js';
import type { StagedEvent } from '../events/index.js';
import { validatePermissions, type AdminAudit, type RoleService } from '../identity/index.js';
import type { InstallationService } from './installations.js';
import type { LoadedApp } from './loader.js';

/** The services `ctx.configuration` reuses: the ones behind core's own access, settings and roles routes. */
export interface ConfigurationServices {
  sequelize: Sequelize;
  apps: { list(): LoadedApp[] };
  installations: InstallationService;
  roles: RoleService;
  audit: AdminAudit;
}

/** Where the capability's calls run: the work's transaction (opened first), as the platform's role. */
export interface ConfigurationWork {
  /** Runs `call` in the work's transaction, under the runtime's role (strict mode steps back from the app's). */
  run<T>(call: () => Promise<T>): Promise<T>;
  /** Stages an event with the work (it leaves only if the work commits). */
  stage(event: StagedEvent): void;
}

type Role = { id: string; name: string; permissions: Record<string, string[]> };

const MEMBER_MRN = /^mrn:account:member:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const POLICIES = ['everyone', 'roles', 'approval'];

const sorted = (values: string[]) => [...new Set(values)].sort();
/** The keys of an object in code-point order, recursively: the one form two documents are compared in. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
}
const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const permissionsOf = (permissions: Record<string, string[]>) => Object.fromEntries(Object.keys(permissions).sort().filter((ns) => permissions[ns].length > 0).map((ns) => [ns, sorted(permissions[ns])]));

/** What a desired configuration changes, with what applying it needs. */
interface Diff extends ConfigurationPlan {
  createRoles: Array<{ name: string; permissions: Record<string, string[]> }>;
  updateRoles: Array<{ id: string; name: string; permissions: Record<string, string[]> }>;
  deleteRoles: string[];
  access: Array<{ app: LoadedApp; policy: ConfiguredApp['access_policy']; allowed: string[]; redlist: string[] }>;
  settings: Array<{ app: LoadedApp; document: Record<string, unknown> }>;
}

/**
 * `ctx.configuration` (SDK `WorkspaceConfiguration`): the workspace's installed apps (access,
 * settings) and custom roles as one document by name, the plan of a desired one, and its apply.
 * Gated on layer 3 (owner or admin). Writes go through the services of core's routes: RoleService
 * (its events and activity records), InstallationService.setAccess and putSettings.
 */
export class ConfigurationCapability {
  constructor(private readonly services: ConfigurationServices) {}

  /** The capability for one caller in one unit of work. */
  for(workspaceId: string, credentials: Credentials, work: ConfigurationWork): WorkspaceConfiguration {
    const caller = () => requireRole(credentials, 'admin', 'manage the workspace configuration');
    return Object.freeze({
      requireCaller: () => {
        caller();
      },
      read: () => {
        caller();
        return work.run(() => this.read(workspaceId));
      },
      plan: (desired: PlatformConfiguration) => {
        caller();
        return work.run(async () => {
          const { changes, unchanged } = await this.diff(workspaceId, desired);
          return { changes, unchanged };
        });
      },
      apply: (desired: PlatformConfiguration, audit: { action: string; target: string }) => {
        const actor = caller();
        return work.run(() => this.apply(workspaceId, actor, desired, audit, work));
      },
    });
  }

  private installedApps = async (workspaceId: string) => {
    const installed = new Set(await this.services.installations.installedApps(workspaceId));
    return this.services.apps.list().filter((app) => installed.has(app.namespace));
  };

  private async roles(workspaceId: string): Promise<Role[]> {
    return this.services.sequelize.query<Role>('SELECT id::text AS id, name, permissions FROM platform.roles WHERE workspace_id = :workspaceId ORDER BY name, id', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId },
    });
  }

  private async read(workspaceId: string): Promise<PlatformConfiguration> {
    const roles = await this.roles(workspaceId);
    const nameOf = new Map(roles.map((role) => [role.id, role.name]));
    const apps: Record<string, ConfiguredApp> = {};
    const rows = await this.services.installations.findAll(workspaceId);
    for (const app of [...this.services.apps.list()].sort((a, b) => (a.namespace < b.namespace ? -1 : 1))) {
      const row = rows.get(app.namespace) ?? null;
      if (!isInstalled(row)) continue;
      const everyone = row.access_policy === 'everyone';
      apps[app.namespace] = {
        access_policy: row.access_policy,
        allowed_roles: everyone ? [] : sorted(row.allowed_roles.map((id) => nameOf.get(id)).filter((name): name is string => name !== undefined)),
        redlist: sorted(row.redlist.map((entry) => nameOf.get(entry) ?? memberMrn(entry))),
        settings: app.manifest.settings?.schema ? (canonical(this.services.installations.effectiveSettings(app, row)) as Record<string, unknown>) : null,
      };
    }
    const byName = [...roles].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { apps, roles: Object.fromEntries(byName.map((role) => [role.name, { permissions: permissionsOf(role.permissions) }])) };
  }

  /** Checks `desired` against the workspace and the loaded apps; every problem named by its path, all at once. */
  private async diff(workspaceId: string, desired: PlatformConfiguration): Promise<Diff> {
    const problems: string[] = [];
    if (!isObject(desired) || !isObject(desired.apps) || !isObject(desired.roles)) throw new InvalidError('apps and roles must be objects');
    const loaded = new Map(this.services.apps.list().map((app) => [app.namespace, app]));
    const installed = new Set((await this.installedApps(workspaceId)).map((app) => app.namespace));
    const current = await this.roles(workspaceId);
    const currentByName = new Map(current.map((role) => [role.name.toLowerCase(), role]));
    const desiredNames = new Map<string, string>();
    const diff: Diff = { changes: [], unchanged: { apps: 0, roles: 0 }, createRoles: [], updateRoles: [], deleteRoles: [], access: [], settings: [] };

    for (const [name, role] of Object.entries(desired.roles)) {
      const path = `roles.${name}`;
      const trimmed = name.trim();
      if (trimmed.length === 0 || trimmed !== name || name.length > 100) problems.push(`${path}: a role name is 1-100 characters without surrounding spaces`);
      if (desiredNames.has(name.toLowerCase())) problems.push(`${path}: the role ${desiredNames.get(name.toLowerCase())} has the same name (names are compared ignoring case)`);
      desiredNames.set(name.toLowerCase(), name);
      if (!isObject(role) || !isObject(role.permissions)) {
        problems.push(`${path}.permissions: must be an object of permission keys by app`);
        continue;
      }
      for (const [namespace, keys] of Object.entries(role.permissions)) {
        const app = loaded.get(namespace);
        if (!Array.isArray(keys)) problems.push(`${path}.permissions.${namespace}: must be an array of permission keys`);
        else if (!app) {
          // A role may hold a slice of an app this runtime does not load (as /roles allows): its keys' grammar is checked.
          try {
            validatePermissions({ [namespace]: keys });
          } catch (error) {
            if (!(error instanceof InvalidError)) throw error;
            problems.push(`${path}.${error.message}`);
          }
        }
        else
          keys.forEach((key, index) => {
            if (key !== `${namespace}.*` && !app.declaredKeys.includes(key)) problems.push(`${path}.permissions.${namespace}[${index}]: ${JSON.stringify(key)} is not a permission of app ${namespace} (declared keys or ${namespace}.*)`);
          });
      }
      const permissions = permissionsOf(role.permissions as Record<string, string[]>);
      const existing = currentByName.get(name.toLowerCase());
      if (!existing) {
        diff.createRoles.push({ name, permissions });
        diff.changes.push({ path, op: 'create' });
        continue;
      }
      const fields = [...(existing.name !== name ? ['name'] : []), ...(same(permissionsOf(existing.permissions), permissions) ? [] : ['permissions'])];
      if (fields.length === 0) diff.unchanged.roles++;
      else {
        diff.updateRoles.push({ id: existing.id, name, permissions });
        diff.changes.push({ path, op: 'update', fields });
      }
    }
    for (const role of current) {
      if (desiredNames.has(role.name.toLowerCase())) continue;
      diff.deleteRoles.push(role.id);
      diff.changes.push({ path: `roles.${role.name}`, op: 'delete' });
    }

    const now = await this.read(workspaceId);
    for (const [namespace, wanted] of Object.entries(desired.apps)) {
      const path = `apps.${namespace}`;
      const app = loaded.get(namespace);
      if (!app || !installed.has(namespace)) {
        problems.push(`${path}: ${app ? 'not installed' : 'no such app'} in this workspace (an import does not install apps: install it first with POST /applications/${namespace}/installations, then import again)`);
        continue;
      }
      if (!isObject(wanted)) {
        problems.push(`${path}: must be an object`);
        continue;
      }
      const before = now.apps[namespace];
      const policy = wanted.access_policy;
      const allowed = Array.isArray(wanted.allowed_roles) ? wanted.allowed_roles : [];
      const redlist = Array.isArray(wanted.redlist) ? wanted.redlist : [];
      if (!POLICIES.includes(policy)) problems.push(`${path}.access_policy: must be one of: ${POLICIES.join(', ')}`);
      if (policy === 'everyone' && allowed.length > 0) problems.push(`${path}.allowed_roles: must be empty when access_policy is everyone`);
      allowed.forEach((name, index) => {
        if (typeof name !== 'string' || !desiredNames.has(name.toLowerCase())) problems.push(`${path}.allowed_roles[${index}]: no role ${JSON.stringify(name)} in the document's roles`);
      });
      redlist.forEach((entry, index) => {
        if (typeof entry !== 'string' || (!MEMBER_MRN.test(entry) && !desiredNames.has(entry.toLowerCase()))) problems.push(`${path}.redlist[${index}]: ${JSON.stringify(entry)} is neither a role of the document's roles nor a member MRN`);
      });
      const access = { policy, allowed: sorted(allowed.map((name) => desiredNames.get(String(name).toLowerCase()) ?? String(name))), redlist: sorted(redlist.map((entry) => desiredNames.get(String(entry).toLowerCase()) ?? String(entry))) };
      const accessFields = [
        ...(before.access_policy !== access.policy ? ['access_policy'] : []),
        ...(same(before.allowed_roles, access.allowed) ? [] : ['allowed_roles']),
        ...(same(before.redlist, access.redlist) ? [] : ['redlist']),
      ];
      const schema = app.manifest.settings?.schema;
      let settingsFields: string[] = [];
      if (!schema) {
        if (wanted.settings !== null && wanted.settings !== undefined) problems.push(`${path}.settings: app ${namespace} declares no settings (null)`);
      } else if (!isObject(wanted.settings)) {
        problems.push(`${path}.settings: must be the app's settings document (an object)`);
      } else {
        const found = jsonSchemaProblems(schema, wanted.settings, `${path}.settings`);
        problems.push(...found.map((problem) => `${problem.path || `${path}.settings`}: ${problem.message}`));
        const keys = sorted([...Object.keys(before.settings ?? {}), ...Object.keys(wanted.settings)]);
        settingsFields = keys.filter((key) => !same(before.settings?.[key], wanted.settings![key]));
      }
      if (accessFields.length > 0) {
        diff.access.push({ app, policy: access.policy, allowed: access.allowed, redlist: access.redlist });
        diff.changes.push({ path: `${path}.access`, op: 'update', fields: accessFields });
      }
      if (settingsFields.length > 0) {
        diff.settings.push({ app, document: wanted.settings! });
        diff.changes.push({ path: `${path}.settings`, op: 'update', fields: settingsFields });
      }
      if (accessFields.length === 0 && settingsFields.length === 0) diff.unchanged.apps++;
    }
    if (problems.length > 0) throw new InvalidError(problems.join('; '));
    return diff;
  }

  private async apply(workspaceId: string, actor: CallerMember, desired: PlatformConfiguration, audit: { action: string; target: string }, work: ConfigurationWork): Promise<ConfigurationChange[]> {
    const diff = await this.diff(workspaceId, desired);
    const { roles, installations } = this.services;
    const stage = (event: StagedEvent) => work.stage(event);
    for (const role of diff.createRoles) await roles.create(actor, role, stage, null);
    for (const role of diff.updateRoles) await roles.update(actor, role.id, role, stage, null);
    const idOf = new Map((await this.roles(workspaceId)).map((role) => [role.name.toLowerCase(), role.id]));
    const entry = (value: string) => MEMBER_MRN.exec(value)?.[1] ?? idOf.get(value.toLowerCase())!;
    for (const access of diff.access) {
      await installations.setAccess(workspaceId, access.app, { access_policy: access.policy, allowed_roles: access.allowed.map(entry), redlist: access.redlist.map(entry) });
    }
    for (const settings of diff.settings) await installations.putSettings(workspaceId, settings.app, settings.document);
    for (const roleId of diff.deleteRoles) await roles.delete(actor, roleId, stage, null);
    await this.services.audit.recordChange(workspaceId, actor.id, audit.action, audit.target, 200);
    return diff.changes;
  }
}
