import { ConflictError, InvalidError, isUuid, NotFoundError } from '@wpk/sdk';
import { namespaceProblem, permissionKeyProblem } from '@wpk/sdk/tooling';
import { Op, UniqueConstraintError, col, fn, where } from 'sequelize';
import { PLATFORM_KEYS_NOT_IN_ROLES, PLATFORM_NAMESPACE, type CallerMember } from '../../access/index.js';
import type { Role, RolePermissions } from '../models/index.js';
import type { ActivityLog } from './activity.js';
import { accountEvent, systemEvent, type IdentityContext, type Stage } from './context.js';

/** A custom role as API answers show it. */
export interface PresentedRole {
  id: string;
  workspace_id: string;
  name: string;
  permissions: RolePermissions;
  member_count: number;
  created_at: string;
  updated_at: string;
}

// The grammar of slugs and permission keys is the SDK's, the one apps are validated against
// (docs/decisions/0190-naming-in-one-place.md): a role can name only keys an app could declare.
/** A first-party slug (`tasks`) or a third-party one (`ext.acme.hello`). */
const isAppSlug = (slug: string) => namespaceProblem(slug, !slug.startsWith('ext.')) === null;
const MAX_PERMISSIONS_PER_APP = 500;

/**
 * Checks a role's permissions: an object keyed by app slug, each value an array of that app's
 * permission keys (`{slug}.{resource}.{action}`) or the wildcard `{slug}.*`. Whether an app
 * declares a key is checked by the apps concern, not here. Returns them de-duplicated.
 */
export function validatePermissions(input: unknown): RolePermissions {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new InvalidError('permissions must be an object keyed by app slug', { field: 'permissions' });
  const result: RolePermissions = {};
  for (const [slug, keys] of Object.entries(input as Record<string, unknown>)) {
    if (slug === PLATFORM_NAMESPACE) throw new InvalidError(`permissions.${PLATFORM_NAMESPACE}: ${PLATFORM_KEYS_NOT_IN_ROLES}`, { field: `permissions.${PLATFORM_NAMESPACE}` });
    if (!isAppSlug(slug)) throw new InvalidError(`permissions: "${slug}" is not an app slug`, { field: 'permissions' });
    if (!Array.isArray(keys)) throw new InvalidError(`permissions.${slug} must be an array of permission keys`, { field: `permissions.${slug}` });
    if (keys.length > MAX_PERMISSIONS_PER_APP) throw new InvalidError(`permissions.${slug} must contain at most ${MAX_PERMISSIONS_PER_APP} keys`, { field: `permissions.${slug}` });
    const unique: string[] = [];
    for (const key of keys) {
      const valid = typeof key === 'string' && (key === `${slug}.*` || permissionKeyProblem(key, slug) === null);
      if (!valid) throw new InvalidError(`permissions.${slug}: ${JSON.stringify(key)} is not a permission key of ${slug} ({slug}.{resource}.{action} or ${slug}.*)`, { field: `permissions.${slug}` });
      if (!unique.includes(key)) unique.push(key);
    }
    result[slug] = unique;
  }
  return result;
}

function changedFields(role: Role, input: { name?: string; permissions?: RolePermissions }): string[] {
  const fields: string[] = [];
  if (input.name !== undefined && input.name !== role.name) fields.push('name');
  if (input.permissions !== undefined && JSON.stringify(input.permissions) !== JSON.stringify(role.permissions)) fields.push('permissions');
  return fields;
}

/** Custom roles of a workspace. */
export class RoleService {
  constructor(
    private readonly context: IdentityContext,
    private readonly activity: ActivityLog,
  ) {}

  private async present(role: Role): Promise<PresentedRole> {
    const memberCount = await this.context.models.MemberRole.count({ where: { workspace_id: role.workspace_id, role_id: role.id } });
    return { id: role.id, workspace_id: role.workspace_id, name: role.name, permissions: role.permissions, member_count: memberCount, created_at: role.created_at.toISOString(), updated_at: role.updated_at.toISOString() };
  }

  async find(workspaceId: string, roleId: string): Promise<Role> {
    const role = isUuid(roleId) ? await this.context.models.Role.findOne({ where: { id: roleId, workspace_id: workspaceId } }) : null;
    if (!role) throw new NotFoundError(`No role ${roleId} in this workspace`);
    return role;
  }

  async get(workspaceId: string, roleId: string): Promise<PresentedRole> {
    return this.present(await this.find(workspaceId, roleId));
  }

  async list(workspaceId: string, page: { limit: number; offset: number }): Promise<{ rows: PresentedRole[]; total: number }> {
    const { rows, count } = await this.context.models.Role.findAndCountAll({ where: { workspace_id: workspaceId }, order: [['name', 'ASC'], ['id', 'ASC']], limit: page.limit, offset: page.offset });
    const presented: PresentedRole[] = [];
    for (const row of rows) presented.push(await this.present(row));
    return { rows: presented, total: count };
  }

  async create(actor: CallerMember, input: { name: string; permissions?: unknown }, stage: Stage, ip: string | null): Promise<PresentedRole> {
    const permissions = validatePermissions(input.permissions ?? {});
    const role = await this.unique(actor.workspaceId, input.name, () => this.context.models.Role.create({ workspace_id: actor.workspaceId, name: input.name.trim(), permissions }));
    const payload = { role_id: role.id, role_name: role.name, created_by: actor.id };
    stage(accountEvent('core.account.role.created', payload));
    stage(systemEvent('system.security.role.created', payload));
    await this.activity.record({ workspaceId: actor.workspaceId, actor: { memberId: actor.id, email: actor.email }, action: 'role.created', targetType: 'role', targetId: role.id, details: { name: role.name }, ip });
    return this.present(role);
  }

  async update(actor: CallerMember, roleId: string, input: { name?: string; permissions?: unknown }, stage: Stage, ip: string | null): Promise<PresentedRole> {
    const role = await this.find(actor.workspaceId, roleId);
    const change = { name: input.name?.trim(), permissions: input.permissions === undefined ? undefined : validatePermissions(input.permissions) };
    const fields = changedFields(role, change);
    if (fields.length > 0) {
      if (change.name !== undefined) role.name = change.name;
      if (change.permissions !== undefined) role.permissions = change.permissions;
      await this.unique(actor.workspaceId, role.name, () => role.save(), role.id);
      stage(accountEvent('core.account.role.updated', { role_id: role.id, role_name: role.name, changed_fields: fields, updated_by: actor.id }));
      await this.activity.record({ workspaceId: actor.workspaceId, actor: { memberId: actor.id, email: actor.email }, action: 'role.updated', targetType: 'role', targetId: role.id, details: { changed_fields: fields }, ip });
    }
    return this.present(role);
  }

  async delete(actor: CallerMember, roleId: string, stage: Stage, ip: string | null): Promise<PresentedRole> {
    const role = await this.find(actor.workspaceId, roleId);
    const presented = await this.present(role);
    const affected = (await this.context.models.MemberRole.findAll({ where: { workspace_id: role.workspace_id, role_id: role.id }, attributes: ['member_id'], order: [['member_id', 'ASC']] })).map((row) => row.member_id);
    await role.destroy();
    stage(accountEvent('core.account.role.deleted', { role_id: role.id, role_name: role.name, deleted_by: actor.id, affected_members: affected }));
    await this.activity.record({ workspaceId: actor.workspaceId, actor: { memberId: actor.id, email: actor.email }, action: 'role.deleted', targetType: 'role', targetId: role.id, details: { name: role.name, affected_members: affected.length }, ip });
    return { ...presented, member_count: 0 };
  }

  private async unique<T>(workspaceId: string, name: string, write: () => Promise<T>, exceptId?: string): Promise<T> {
    const clash = await this.context.models.Role.findOne({ where: { [Op.and]: [{ workspace_id: workspaceId }, where(fn('lower', col('name')), name.trim().toLowerCase()), ...(exceptId ? [{ id: { [Op.ne]: exceptId } }] : [])] } });
    if (clash) throw new ConflictError(`A role named "${name.trim()}" already exists`, { field: 'name' });
    try {
      return await write();
    } catch (error) {
      // Two requests racing for one name: the unique index decides.
      if (error instanceof UniqueConstraintError) throw new ConflictError(`A role named "${name.trim()}" already exists`, { field: 'name' });
      throw error;
    }
  }
}
