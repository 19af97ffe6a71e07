/**
 * The platform's event catalog (specification, "Event catalog": System and Account): every event
 * the platform runtime emits, with the JSON Schema of its payload. Apps subscribe to these; the
 * runtime registers them as its own emissions; `wpk types` turns them into payload types;
 * docs/platform-events.md is generated from them. This is the only copy.
 *
 * Identifiers of platform rows (members, roles) are UUIDs; "who did it" fields (`*_by`) are
 * strings (a member id, or an MRN for API keys and the system) and optional, since an action may
 * have no human actor. Payloads may carry more fields than listed (`additionalProperties: true`).
 */

import type { JsonSchema } from './types.js';

/** One event of the platform's catalog. */
export interface PlatformEvent {
  /** The action, e.g. `system.app.installed`. */
  action: string;
  /** What happened. */
  description: string;
  /** JSON Schema of the payload (an object). */
  schema: JsonSchema;
  /** Payload fields masked in logs and listings (subscribers receive them in clear). */
  redact: string[];
}

const uuid: JsonSchema = { type: 'string', format: 'uuid' };
const text: JsonSchema = { type: 'string', minLength: 1 };
const actor: JsonSchema = { type: 'string', minLength: 1, description: 'Who did it: a member id, or an MRN for an API key or the system.' };
const platformRole: JsonSchema = { type: 'string', enum: ['owner', 'admin', 'member'] };
const appSlug: JsonSchema = { type: 'string', minLength: 1, description: 'The app: its slug, or `ext.{publisher}.{slug}`.' };

function declare(action: string, description: string, properties: Record<string, JsonSchema>, required: string[], redact: string[] = []): PlatformEvent {
  return Object.freeze({ action, description, schema: { type: 'object', properties, required, additionalProperties: true }, redact });
}

/** `system.*`: lifecycle and security events of the platform. `system.security.*` feed the audit trail. */
export const SYSTEM_EVENT_CATALOG: readonly PlatformEvent[] = Object.freeze([
  declare('system.app.installed', 'An app was installed in the workspace.', { app_slug: appSlug, installed_by: actor }, ['app_slug']),
  declare('system.app.uninstalled', 'An app was uninstalled from the workspace.', { app_slug: appSlug, uninstalled_by: actor }, ['app_slug']),
  declare('system.workspace.created', 'The workspace was created.', { name: text, owner_id: text }, ['name']),
  declare('system.workspace.member.added', 'A member joined the workspace.', { member_id: uuid, role: platformRole }, ['member_id', 'role']),
  declare('system.workspace.member.removed', 'A member was removed from the workspace.', { member_id: uuid, removed_by: actor }, ['member_id']),
  declare('system.security.role.created', 'A role was created (audit).', { role_id: uuid, role_name: text, created_by: actor }, ['role_id', 'role_name']),
  declare(
    'system.security.permission.denied',
    'A request was refused for lack of a permission (audit).',
    { member_id: uuid, permission: text, app_slug: appSlug, route: text },
    ['permission', 'route'],
  ),
]);

/** `core.account.*`: the account area (apps, roles, members) as seen by other apps. */
export const ACCOUNT_EVENT_CATALOG: readonly PlatformEvent[] = Object.freeze([
  declare('core.account.application.installed', 'An application was installed.', { app_slug: appSlug, app_name: text, installed_by: actor }, ['app_slug', 'app_name']),
  declare('core.account.application.uninstalled', 'An application was uninstalled.', { app_slug: appSlug, app_name: text, uninstalled_by: actor }, ['app_slug', 'app_name']),
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
]);

const decimal: JsonSchema = { type: 'string', pattern: '^-?[0-9]+\\.[0-9]{2}$', description: 'An exact decimal amount with two places, e.g. `96.00`.' };
const instant: JsonSchema = { type: 'string', format: 'date-time' };

/** `core.billing.*`: the platform's billing (docs/billing.md), emitted by the runtime's `billing` emitter. */
export const BILLING_EVENT_CATALOG: readonly PlatformEvent[] = Object.freeze([
  declare(
    'core.billing.invoice.issued',
    'An invoice was issued and is due: `seats` (a period of seats billed in advance, or an upgrade\'s proration) or `usage` (seats beyond those paid for, billed after the month).',
    { invoice_id: uuid, workspace_id: uuid, kind: { type: 'string', enum: ['seats', 'usage'] }, amount: decimal, currency: { type: 'string', pattern: '^[A-Z]{3}$' }, period_start: instant, period_end: instant, due_at: instant },
    ['invoice_id', 'workspace_id', 'kind', 'amount', 'currency', 'period_start', 'period_end', 'due_at'],
  ),
  declare(
    'core.billing.invoice.paid',
    "An invoice was charged to the workspace's default card and is paid (`attempt_count`: the charges it took).",
    { invoice_id: uuid, workspace_id: uuid, amount: decimal, currency: { type: 'string', pattern: '^[A-Z]{3}$' }, attempt_count: { type: 'integer', minimum: 1 }, paid_at: instant },
    ['invoice_id', 'workspace_id', 'amount', 'currency', 'attempt_count', 'paid_at'],
  ),
  declare(
    'core.billing.invoice.payment_failed',
    'A charge of an invoice failed (declined, or no card on file); the invoice is past due. `next_attempt_at` is the next retry (absent: none is left).',
    { invoice_id: uuid, workspace_id: uuid, amount: decimal, currency: { type: 'string', pattern: '^[A-Z]{3}$' }, attempt_count: { type: 'integer', minimum: 1 }, error: { type: 'string', minLength: 1 }, next_attempt_at: instant },
    ['invoice_id', 'workspace_id', 'amount', 'currency', 'attempt_count', 'error'],
  ),
  declare(
    'core.billing.dunning.exhausted',
    "The last retry of an invoice's charge failed (dunning exhausted): the workspace is past due until every invoice is paid.",
    { workspace_id: uuid, invoice_id: uuid, since: instant },
    ['workspace_id', 'invoice_id', 'since'],
  ),
]);

/** Every event the platform runtime emits: `system.*`, then `core.account.*`, then `core.billing.*`. */
export const PLATFORM_EVENTS: readonly PlatformEvent[] = Object.freeze([...SYSTEM_EVENT_CATALOG, ...ACCOUNT_EVENT_CATALOG, ...BILLING_EVENT_CATALOG]);

/** The catalog entry of `action`, or undefined when the platform does not emit it. */
export function platformEvent(action: string): PlatformEvent | undefined {
  return PLATFORM_EVENTS.find((event) => event.action === action);
}
