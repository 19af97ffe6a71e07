import type { EmitDeclaration, JsonSchema } from './types.js';

/**
 * The events the platform runtime emits (specification, "Event catalog": System and Account),
 * each with the JSON Schema of its catalog payload fields. Identifiers of platform rows
 * (members, roles) are UUIDs; "who did it" fields (`*_by`) are strings (a member id, or an
 * MRN for API keys and the system) and optional, since an action may have no human actor.
 */

const uuid: JsonSchema = { type: 'string', format: 'uuid' };
const text: JsonSchema = { type: 'string', minLength: 1 };
const actor: JsonSchema = { type: 'string', minLength: 1 };
const platformRole: JsonSchema = { type: 'string', enum: ['owner', 'admin', 'member'] };

function object(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: true };
}

function declare(action: string, description: string, properties: Record<string, JsonSchema>, required: string[], redact: string[] = []): EmitDeclaration {
  return { action, description, schema: object(properties, required), redact };
}

/** `system.*`: lifecycle and security events of the platform. `system.security.*` feed the audit trail. */
export const SYSTEM_EVENTS: EmitDeclaration[] = [
  declare('system.app.installed', 'An app was installed in the workspace.', { app_slug: text, installed_by: actor }, ['app_slug']),
  declare('system.app.uninstalled', 'An app was uninstalled from the workspace.', { app_slug: text, uninstalled_by: actor }, ['app_slug']),
  declare('system.workspace.created', 'The workspace was created.', { name: text, owner_id: text }, ['name']),
  declare('system.workspace.member.added', 'A member joined the workspace.', { member_id: uuid, role: platformRole }, ['member_id', 'role']),
  declare('system.workspace.member.removed', 'A member was removed from the workspace.', { member_id: uuid, removed_by: actor }, ['member_id']),
  declare('system.security.role.created', 'A role was created (audit).', { role_id: uuid, role_name: text, created_by: actor }, ['role_id', 'role_name']),
  declare(
    'system.security.permission.denied',
    'A request was refused for lack of a permission (audit).',
    { member_id: uuid, permission: text, app_slug: text, route: text },
    ['permission', 'route'],
  ),
];

/** `core.account.*`: the account area (apps, roles, members) as seen by other apps. */
export const ACCOUNT_EVENTS: EmitDeclaration[] = [
  declare('core.account.application.installed', 'An application was installed.', { app_slug: text, app_name: text, installed_by: actor }, ['app_slug', 'app_name']),
  declare('core.account.application.uninstalled', 'An application was uninstalled.', { app_slug: text, app_name: text, uninstalled_by: actor }, ['app_slug', 'app_name']),
  declare('core.account.role.created', 'A role was created.', { role_id: uuid, role_name: text, created_by: actor }, ['role_id', 'role_name']),
  declare(
    'core.account.role.updated',
    'A role was changed.',
    { role_id: uuid, role_name: text, changed_fields: { type: 'array', items: { type: 'string' } }, updated_by: actor },
    ['role_id', 'role_name', 'changed_fields'],
  ),
  declare(
    'core.account.role.deleted',
    'A role was deleted; affected_members lists the member ids that held it (a count is accepted too).',
    { role_id: uuid, role_name: text, deleted_by: actor, affected_members: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'integer', minimum: 0 }] } },
    ['role_id', 'role_name'],
  ),
  declare('core.account.member.invited', 'Someone was invited to the workspace.', { email: { type: 'string', format: 'email' }, invited_by: actor, platform_role: platformRole }, ['email', 'platform_role'], ['email']),
  declare('core.account.member.removed', 'A member was removed.', { member_id: uuid, removed_by: actor }, ['member_id']),
  declare('core.account.member.role_changed', "A member's role changed.", { member_id: uuid, from_role: text, to_role: text, changed_by: actor }, ['member_id', 'to_role']),
  declare('core.account.member.avatar_updated', "A member's avatar changed (avatar_url absent: removed).", { member_id: uuid, avatar_url: { type: 'string' } }, ['member_id']),
];

/** Every action the runtime emits. */
export const RUNTIME_EVENTS: EmitDeclaration[] = [...SYSTEM_EVENTS, ...ACCOUNT_EVENTS];

/** The audit trail subscribes to these (all `system.security.*` actions). */
export const AUDITED_ACTIONS: string[] = SYSTEM_EVENTS.map((event) => event.action).filter((action) => action.startsWith('system.security.'));
