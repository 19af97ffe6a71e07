import { fieldLabel, InvalidError, type AccessExplanation, isUuid, memberIdFromMrn, memberMrn, memberReferenceFields, valuesAt, type ContextMembers, type DirectoryMember, type MemberReferenceField, type RouteValidation } from '@wpk/sdk';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { ExplainCatalog, InstallationView } from '../access/index.js';
import { describeSchema } from '../openapi/index.js';
import type { LoadedApp } from './loader.js';

/** Runs one SELECT of the member directory where the caller's work allows it (its transaction, the runtime's role). */
export type DirectoryRead = <T extends object>(sql: string, replacements: Record<string, unknown>) => Promise<T[]>;

interface MemberRow {
  id: string;
  name: string;
  email: string;
  platform_role: DirectoryMember['platform_role'];
  active: boolean;
}

// Joined members only: an invitation not yet accepted makes nobody a member. A removed member
// (deactivated) is found, inactive, so "no longer a member" can be told from "never one".
const SELECT = `SELECT m.id::text AS id, a.name, a.email, m.platform_role, (m.deactivated_at IS NULL) AS active
  FROM platform.members m JOIN platform.accounts a ON a.id = m.account_id
  WHERE m.workspace_id = :workspaceId AND m.state = 'joined'`;

const toMember = (row: MemberRow): DirectoryMember => ({ id: row.id, mrn: memberMrn(row.id), name: row.name, email: row.email, platform_role: row.platform_role, active: row.active === true });

/** The member id a reference names (`{uuid}` or `mrn:account:member:{uuid}`), lower-cased; null when it names no member. */
export function memberIdOf(reference: string): string | null {
  const id = reference.startsWith('mrn:') ? memberIdFromMrn(reference) : reference;
  return id !== null && isUuid(id) ? id.toLowerCase() : null;
}

/**
 * `ctx.members` of one workspace: the platform's member directory, read on every call, so it is
 * never behind the platform (docs/decisions/, "ctx.members reads the platform's member directory").
 * A class, so every context's `members` has one shape (no closures made per request).
 */
export class WorkspaceMembers implements ContextMembers {
  constructor(
    private readonly read: DirectoryRead,
    private readonly workspaceId: string,
    /** The permission explainer of this workspace (access/explain.ts), run where the caller's work allows it; absent: `explain` throws. */
    private readonly explainer: ((member: DirectoryMember, action: string) => Promise<AccessExplanation>) | null = null,
  ) {}

  async explain(idOrMrn: string, action: string): Promise<AccessExplanation | null> {
    if (!this.explainer) throw new Error('ctx.members.explain is not available here (no route table)');
    const member = await this.get(idOrMrn);
    return member ? this.explainer(member, String(action)) : null;
  }

  async get(idOrMrn: string): Promise<DirectoryMember | null> {
    return (await this.getMany([idOrMrn])).get(memberIdOf(String(idOrMrn)) ?? '') ?? null;
  }

  async getMany(idsOrMrns: readonly string[]): Promise<Map<string, DirectoryMember>> {
    const ids = [...new Set(idsOrMrns.map((value) => memberIdOf(String(value))).filter((id): id is string => id !== null))];
    if (ids.length === 0) return new Map();
    const rows = await this.read<MemberRow>(`${SELECT} AND m.id IN (:ids)`, { workspaceId: this.workspaceId, ids });
    return new Map(rows.map((row) => [row.id, toMember(row)]));
  }

  async require(idsOrMrns: string | readonly string[], field: string, options: { former?: boolean } = {}): Promise<Map<string, DirectoryMember>> {
    const values = typeof idsOrMrns === 'string' ? [idsOrMrns] : [...idsOrMrns];
    const found = await this.getMany(values);
    for (const value of values) refuseUnlessMember(found, String(value), field, options.former === true);
    return found;
  }

  async lacks(idOrMrn: string, keys: readonly string[]): Promise<string[] | null> {
    const id = memberIdOf(String(idOrMrn));
    if (id === null) return null;
    const [member] = await this.read<{ platform_role: DirectoryMember['platform_role']; active: boolean }>(
      `SELECT m.platform_role, (m.deactivated_at IS NULL) AS active FROM platform.members m WHERE m.workspace_id = :workspaceId AND m.state = 'joined' AND m.id = :id`,
      { workspaceId: this.workspaceId, id },
    );
    if (!member || member.active !== true) return null;
    // Owners and admins hold every key, as layer 5 judges them; nothing is cached (the API keys' rule).
    if (member.platform_role === 'owner' || member.platform_role === 'admin') return [];
    const rows = await this.read<{ permissions: unknown }>(
      `SELECT r.permissions FROM platform.member_roles mr JOIN platform.roles r ON r.id = mr.role_id AND r.workspace_id = mr.workspace_id
        WHERE mr.workspace_id = :workspaceId AND mr.member_id = :id`,
      { workspaceId: this.workspaceId, id },
    );
    const held = new Set<string>();
    for (const row of rows) {
      const slices = (typeof row.permissions === 'string' ? JSON.parse(row.permissions) : row.permissions) as Record<string, unknown> | null;
      for (const slice of Object.values(slices ?? {})) if (Array.isArray(slice)) for (const key of slice) if (typeof key === 'string') held.add(key);
    }
    return [...new Set(keys)].filter((key) => !held.has(key) && !held.has(`${keyNamespace(key)}.*`));
  }

  async list(options: { q?: string; offset?: number; limit?: number } = {}): Promise<{ rows: DirectoryMember[]; count: number }> {
    const limit = Math.max(1, Math.min(options.limit ?? 25, 100));
    const offset = Math.max(0, options.offset ?? 0);
    const q = options.q?.trim();
    const replacements = { workspaceId: this.workspaceId, pattern: q ? `%${q.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : null, limit, offset };
    const listed = `${SELECT} AND m.deactivated_at IS NULL${q ? ' AND (a.name ILIKE :pattern OR a.email ILIKE :pattern)' : ''}`;
    // One after the other: inside a transaction both would share its one connection.
    const rows = await this.read<MemberRow>(`${listed} ORDER BY a.name, m.id LIMIT :limit OFFSET :offset`, replacements);
    const [{ total }] = await this.read<{ total: string }>(`SELECT count(*) AS total FROM (${listed}) listed`, replacements);
    return { rows: rows.map(toMember), count: Number(total) };
  }
}

/** The app namespace of a permission key: `ext.{publisher}.{slug}` or the first-party slug. */
function keyNamespace(key: string): string {
  const parts = key.split('.');
  return parts[0] === 'ext' ? parts.slice(0, 3).join('.') : parts[0];
}

/** 400 naming the field unless `value` is a member of the workspace in `found` (active, or any with `former`). */
function refuseUnlessMember(found: Map<string, DirectoryMember>, value: string, field: string, former: boolean): void {
  const member = found.get(memberIdOf(value) ?? '');
  if (!member) throw new InvalidError(`${field} ${value} is not a member of this workspace`);
  if (!member.active && !former) throw new InvalidError(`${field} ${value} is no longer a member of this workspace`);
}

/** The member-reference fields of a route's validation, by part of the request (computed once per route). */
export interface RouteMemberFields {
  part: 'params' | 'query' | 'payload';
  field: MemberReferenceField;
}

/** Every field a route's validation declares with `Joi.memberId()` or `Joi.memberMrn()`. */
export function routeMemberFields(validate: RouteValidation | undefined): RouteMemberFields[] {
  const fields: RouteMemberFields[] = [];
  for (const part of ['params', 'query', 'payload'] as const) {
    const schema = validate?.[part];
    if (schema) for (const field of memberReferenceFields(describeSchema(schema))) fields.push({ part, field });
  }
  return fields;
}

/**
 * Checks a request's member references against the directory in one read, before its handler
 * runs: each value must name a member of the workspace (active unless the field says `former`);
 * the first that does not is a 400 naming its field as the validation errors do (`query parameter
 * owner_mrn`, `path parameter member_mrn`).
 */
export async function checkMemberReferences(sequelize: Sequelize, workspaceId: string, fields: readonly RouteMemberFields[], request: { params: unknown; query: unknown; payload: unknown }): Promise<void> {
  const wanted = fields.map(({ part, field }) => ({ part, field, values: valuesAt(request[part], field.path) }));
  const all = wanted.flatMap((entry) => entry.values);
  if (all.length === 0) return;
  const members = new WorkspaceMembers((sql, replacements) => sequelize.query(sql, { type: QueryTypes.SELECT, replacements }), workspaceId);
  const found = await members.getMany(all);
  for (const { part, field, values } of wanted) {
    const where = part === 'query' ? 'query parameter ' : part === 'params' ? 'path parameter ' : '';
    const label = `${where}${fieldLabel(field.path)}`;
    for (const value of values) refuseUnlessMember(found, value, label, field.rule === 'former');
  }
}

/** The permission explainer's view of the runtime (`ctx.members.explain`): every loaded app's route table and keys, and the installations as the app guard loads them. */
export function explainCatalog(registry: { list(): LoadedApp[] }, installations: { find(workspaceId: string, namespace: string): Promise<InstallationView | null> }): ExplainCatalog {
  const apps = registry.list().map((app) => ({ namespace: app.namespace, routePrefix: app.routePrefix, authorization: app.manifest.authorization, declaredKeys: app.declaredKeys }));
  return { apps: () => apps, installation: (workspaceId, namespace) => installations.find(workspaceId, namespace) };
}
