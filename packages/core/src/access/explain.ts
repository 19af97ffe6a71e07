import { InvalidError, type AccessExplanation, type AccessLayerVerdict, type AuthorizationEntry, type ChainStep, type DirectoryMember } from '@wpk/sdk';
import { QueryTypes, type Sequelize } from 'sequelize';
import { evaluateChain, type CheckRunner } from './chain.js';
import { KEY_SOURCE, MEMBER_ACTIVE, SESSION_SOURCE, WORKSPACE_ACTIVE, keyValid, sessionValid } from './layers.js';
import { isInstalled, MemberPermissionSource, type AccessRule, type InstallationView } from './permission-source.js';
import type { PermissionSet } from './permission-set.js';

/** One loaded app as the explainer reads it: its namespace, route prefix, authorization table and declared keys. */
export interface ExplainedApp {
  namespace: string;
  routePrefix: string;
  authorization: readonly AuthorizationEntry[];
  declaredKeys: readonly string[];
}

/** What the explainer reads besides the database: the runtime's route table and the installations. */
export interface ExplainCatalog {
  /** Every loaded app (installed here or not). */
  apps(): readonly ExplainedApp[];
  /** The app's installation row in the workspace (null: never installed), as the app guard loads it. */
  installation(workspaceId: string, namespace: string): Promise<InstallationView | null>;
}

/** The action resolved: its app, the operation (or null for a key) and the chain layer 5 judges (null: a public route). */
interface ResolvedAction {
  app: ExplainedApp;
  operation: string | null;
  chain: readonly ChainStep[] | null;
}

const OPERATION = /^(GET|POST|PUT|PATCH|DELETE)\s+(\/\S*)$/i;
const KEY = /^[a-z0-9][a-z0-9_.-]*[a-z0-9*]$/;

/** How well a route pattern matches a concrete path: null when it does not; higher for more literal segments earlier (hapi's preference). */
function matchScore(pattern: string, path: string): number | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  let score = 0;
  for (let index = 0; index < want.length; index += 1) {
    const segment = want[index];
    if (/^\{[^}]+\}$/.test(segment)) {
      if (got[index] === '') return null;
      continue;
    }
    if (segment !== got[index]) return null;
    score += 2 ** (want.length - index);
  }
  return score;
}

/** The app, operation and chain an action names; InvalidError naming `action` when it names none. */
export function resolveAction(apps: readonly ExplainedApp[], action: string): ResolvedAction {
  const text = action.trim();
  const operation = OPERATION.exec(text);
  if (operation) {
    const method = operation[1].toUpperCase();
    const path = operation[2].replace(/\/+$/, '') || '/';
    let best: { app: ExplainedApp; entry: AuthorizationEntry; score: number } | null = null;
    for (const app of apps) {
      for (const entry of app.authorization) {
        if (entry.method !== method) continue;
        const pattern = `${app.routePrefix}${entry.path}`;
        const score = pattern === path ? Number.MAX_SAFE_INTEGER : matchScore(pattern, path);
        if (score !== null && (best === null || score > best.score)) best = { app, entry, score };
      }
    }
    if (!best) throw new InvalidError(`action ${text} is no operation of an app of this platform`, { field: 'action' });
    const { app, entry } = best;
    return { app, operation: `${method} ${app.routePrefix}${entry.path}`, chain: entry.public === true ? null : ((entry.chain ?? []) as ChainStep[]) };
  }
  if (KEY.test(text)) {
    const app = [...apps].sort((a, b) => b.namespace.length - a.namespace.length).find((candidate) => text.startsWith(`${candidate.namespace}.`));
    if (app && (app.declaredKeys.includes(text) || text === `${app.namespace}.*`)) return { app, operation: null, chain: [text] };
  }
  throw new InvalidError(`action must be a declared permission key (tasks.tasks.create) or an operation (DELETE /tasks/{task_id}); ${text || 'an empty value'} is neither`, { field: 'action' });
}

interface RoleRow {
  id: string;
  name: string;
  slice: unknown;
}

const asArray = (value: unknown): string[] => {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(parsed) ? parsed.filter((key): key is string => typeof key === 'string') : [];
};

const list = (values: readonly string[], none: string) => (values.length === 0 ? none : values.join(', '));

/** Layer 4's rule in words, with role names. */
function accessReason(namespace: string, why: AccessRule | undefined, fallback: string, roleName: (id: string) => string): string {
  if (!why) return fallback;
  switch (why.rule) {
    case 'platform_role':
      return `${why.platformRole}s open every installed app`;
    case 'redlist':
      return why.theMember ? `the member is on app ${namespace}'s redlist` : `role ${roleName(why.entry)} is on app ${namespace}'s redlist`;
    case 'everyone':
      return 'access policy is everyone';
    case 'roles': {
      if (why.policy === 'approval') return `access policy is approval, which lets no role in yet (the member holds ${list(why.memberRoles.map(roleName), 'no role')})`;
      if (why.match !== null) return `access policy is roles and the member holds ${roleName(why.match)}`;
      return `access policy is roles and the member holds none of: ${list(why.allowedRoles.map(roleName), 'no role is allowed')}`;
    }
    default:
      return fallback;
  }
}

/** The keys held in the app and the roles that grant each: `crm.deals.read via role Sales`. */
function holdings(permissions: PermissionSet, roles: readonly RoleRow[]): string {
  const granted = permissions.grantedKeys();
  if (granted.length === 0) return `holds no key of ${permissions.namespace}`;
  const parts = granted.map((key) => {
    const via = roles.filter((role) => asArray(role.slice).includes(key)).map((role) => role.name);
    return via.length === 0 ? key : `${key} via role ${via.join(', role ')}`;
  });
  return `holds ${parts.join('; ')}`;
}

/** The named checks of a chain (the steps that depend on the record). */
function checksOf(chain: readonly ChainStep[]): string[] {
  const names: string[] = [];
  for (const step of chain) {
    if (typeof step === 'string') continue;
    if ('any_of' in step) for (const alternative of step.any_of) if (typeof alternative !== 'string') names.push(alternative.check);
    if ('check' in step) names.push(step.check);
  }
  return names;
}

/** Layer 5 for a member, by the guard's own chain evaluation: a named check is judged both ways, so what depends on the record shows. */
async function judgeChain(chain: readonly ChainStep[], permissions: PermissionSet, roles: readonly RoleRow[]): Promise<{ passed: boolean; dependsOnRecord: boolean; reason: string }> {
  if (permissions.universal) return { passed: true, dependsOnRecord: false, reason: 'owners and admins hold every key' };
  const checks = checksOf(chain);
  const failing: CheckRunner = async () => ({ passed: false });
  const verdict = await evaluateChain(chain, permissions, failing);
  const held = holdings(permissions, roles);
  if (verdict.allowed) return { passed: true, dependsOnRecord: false, reason: `${held}${checks.length > 0 ? ` (whatever check ${checks.join(', check ')} says of the record)` : ''}` };
  if (checks.length > 0) {
    const passing: CheckRunner = async () => ({ passed: true });
    const ifRecord = await evaluateChain(chain, permissions, passing);
    if (ifRecord.allowed) {
      return { passed: false, dependsOnRecord: true, reason: `depends on the record: allowed where check ${checks.join(', check ')} passes for it; otherwise ${verdict.reason}; ${held}` };
    }
  }
  return { passed: false, dependsOnRecord: false, reason: `${verdict.reason}; ${held}` };
}

/**
 * The permission explainer (`ctx.members.explain`): the five layers for one member and one
 * action, now, judged by the functions the real guard runs: the SQL fragments of layers 1-2
 * (access/layers.ts), `isInstalled` and `MemberPermissionSource` (layer 4 and the member's slice,
 * as for a session or a full-access key), and `evaluateChain` (layer 5). Nothing is cached.
 * Layer 1 is not judged (authentication is per request): it states whether the member has a
 * way in now (an active session or API key). Layer 3 gates workspace-management routes only, so
 * it is not applied to an app's action.
 */
export async function explainAccess(sequelize: Sequelize, catalog: ExplainCatalog, workspaceId: string, member: DirectoryMember, action: string, now: Date): Promise<AccessExplanation> {
  const resolved = resolveAction(catalog.apps(), action);
  const { app } = resolved;
  const replacements = { workspaceId, memberId: member.id, namespace: app.namespace, now: now.toISOString() };
  const [state] = await sequelize.query<{ sessions: string | number; keys: string | number; active: boolean; workspace_active: boolean }>(
    `SELECT (SELECT count(*) FROM ${SESSION_SOURCE} WHERE s.workspace_id = :workspaceId AND s.member_id = :memberId AND ${sessionValid('CAST(:now AS timestamptz)')}) AS sessions,
            (SELECT count(*) FROM ${KEY_SOURCE} WHERE k.workspace_id = :workspaceId AND k.member_id = :memberId AND ${keyValid('CAST(:now AS timestamptz)')}) AS keys,
            (SELECT ${MEMBER_ACTIVE} FROM platform.members m WHERE m.workspace_id = :workspaceId AND m.id = :memberId) AS active,
            (SELECT ${WORKSPACE_ACTIVE} FROM platform.workspaces w WHERE w.id = :workspaceId) AS workspace_active`,
    { type: QueryTypes.SELECT, replacements },
  );
  const roleNames = await sequelize.query<{ id: string; name: string }>('SELECT id::text AS id, name FROM platform.roles WHERE workspace_id = :workspaceId', { type: QueryTypes.SELECT, replacements });
  const memberRoles = await sequelize.query<RoleRow>(
    `SELECT r.id::text AS id, r.name, r.permissions -> :namespace AS slice
       FROM platform.member_roles mr JOIN platform.roles r ON r.workspace_id = mr.workspace_id AND r.id = mr.role_id
      WHERE mr.workspace_id = :workspaceId AND mr.member_id = :memberId ORDER BY r.name, r.id`,
    { type: QueryTypes.SELECT, replacements },
  );
  const names = new Map(roleNames.map((row) => [row.id, row.name]));
  const roleName = (id: string) => names.get(id) ?? id;

  const sessions = Number(state.sessions);
  const keys = Number(state.keys);
  const ways = sessions + keys === 0 ? 'no active session or API key now' : `${sessions} active session${sessions === 1 ? '' : 's'} and ${keys} active API key${keys === 1 ? '' : 's'} now`;
  const layers: AccessLayerVerdict[] = [{ layer: 1, name: 'authentication', passed: null, reason: `not judged: authentication is per request (the member has ${ways})` }];

  const active = state.active === true;
  const membership = !state.workspace_active ? 'the workspace is not active' : active ? `member of the workspace (${member.platform_role})` : 'member is deactivated: their sessions and API keys no longer authenticate (401)';
  layers.push({ layer: 2, name: 'membership', passed: active && state.workspace_active === true, reason: membership });

  const privileged = member.platform_role === 'owner' || member.platform_role === 'admin';
  layers.push({ layer: 3, name: 'platform_role', passed: null, reason: `not applied: it gates workspace-management routes, not an app's actions (platform role ${member.platform_role}${privileged ? ': owners and admins hold every key' : ''})` });

  if (resolved.chain === null) {
    const installation = await catalog.installation(workspaceId, app.namespace);
    layers.push({ layer: 4, name: 'app_access', passed: isInstalled(installation), reason: isInstalled(installation) ? `public route of app ${app.namespace}: no caller needed` : `app ${app.namespace} is not installed` });
    layers.push({ layer: 5, name: 'app_permission', passed: null, reason: 'public route: no chain' });
    return finish(member, action, resolved, layers, false);
  }

  // As the guard does for a session or a full-access key: the member's PermissionSource.
  const source = new MemberPermissionSource(sequelize, { id: member.id, workspaceId, platformRole: member.platform_role }, `member ${member.id} (${member.platform_role}, explained)`);
  const installation = await catalog.installation(workspaceId, app.namespace);
  if (!isInstalled(installation)) {
    layers.push({ layer: 4, name: 'app_access', passed: false, reason: `app ${app.namespace} is not installed` });
  } else {
    const decision = await source.appAccess(app.namespace, installation);
    layers.push({ layer: 4, name: 'app_access', passed: decision.allowed, reason: accessReason(app.namespace, decision.why, decision.reason, roleName) });
  }
  const permissions = await source.appPermissions(app.namespace);
  const judged = await judgeChain(resolved.chain, permissions, memberRoles);
  layers.push({ layer: 5, name: 'app_permission', passed: judged.passed, reason: judged.reason });
  return finish(member, action, resolved, layers, judged.dependsOnRecord);
}

function finish(member: DirectoryMember, action: string, resolved: ResolvedAction, layers: AccessLayerVerdict[], dependsOnRecord: boolean): AccessExplanation {
  const refusing = layers.find((layer) => layer.passed === false);
  const decision = refusing === undefined ? 'allowed' : refusing.layer === 5 && dependsOnRecord ? 'depends_on_record' : 'refused';
  return { member, action: action.trim(), app: resolved.app.namespace, operation: resolved.operation, chain: [...(resolved.chain ?? [])], layers, decision, decided_by: refusing?.layer ?? null };
}
