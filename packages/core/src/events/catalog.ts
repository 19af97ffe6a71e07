import { ACCOUNT_EVENT_CATALOG, BILLING_EVENT_CATALOG, SYSTEM_EVENT_CATALOG, type PlatformEvent } from '@wpk/sdk/tooling';
import type { EmitDeclaration } from './types.js';

/**
 * The events the platform runtime emits, as the event bus registers them. The catalog itself
 * (actions, descriptions, payload schemas) lives in the SDK (`@wpk/sdk/tooling`, `catalog.ts`),
 * so apps, `wpk types` and the docs read the same one.
 */

const declaration = (event: PlatformEvent): EmitDeclaration => ({ action: event.action, description: event.description, schema: event.schema, redact: [...event.redact] });

/** `system.*`: lifecycle and security events of the platform. `system.security.*` feed the audit trail. */
export const SYSTEM_EVENTS: EmitDeclaration[] = SYSTEM_EVENT_CATALOG.map(declaration);

/** `core.account.*`: the account area (apps, roles, members) as seen by other apps. */
export const ACCOUNT_EVENTS: EmitDeclaration[] = ACCOUNT_EVENT_CATALOG.map(declaration);

/** `core.billing.*`: invoices of the platform's billing (docs/billing.md). */
export const BILLING_EVENTS: EmitDeclaration[] = BILLING_EVENT_CATALOG.map(declaration);

/** Every action the runtime's `system` emitter emits. */
export const RUNTIME_EVENTS: EmitDeclaration[] = [...SYSTEM_EVENTS, ...ACCOUNT_EVENTS];

/** The audit trail subscribes to these (all `system.security.*` actions). */
export const AUDITED_ACTIONS: string[] = SYSTEM_EVENTS.map((event) => event.action).filter((action) => action.startsWith('system.security.'));
