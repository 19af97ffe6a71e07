import type { Logger } from 'pino';
import type { AccessDenial } from './app-guard.js';

/** What `permission` says when no single key was missing (the catalog requires the field). */
const NO_SINGLE_KEY: Record<number, string> = { 2: 'workspace_membership', 4: 'app_access', 5: 'authorization_check' };

/** The part of the event bus a denial needs. */
export interface DenialPublisher {
  publish(workspaceId: string | null, events: Array<{ emitter: string; action: string; payload: Record<string, unknown>; metadata: Record<string, unknown> }>): Promise<unknown>;
}

/**
 * Turns every app-route refusal (layers 2, 4 and 5) into `system.security.permission.denied`,
 * which feeds the audit trail. The refusal itself never waits for, or fails with, the emission.
 */
export function permissionDeniedEmitter(events: DenialPublisher, logger: Logger): (denial: AccessDenial) => void {
  return (denial) => {
    if (!denial.workspaceId) return;
    const payload = {
      member_id: denial.memberId,
      permission: denial.permission ?? NO_SINGLE_KEY[denial.layer] ?? `layer_${denial.layer}`,
      app_slug: denial.app,
      route: denial.route,
    };
    events
      .publish(denial.workspaceId, [{ emitter: 'system', action: 'system.security.permission.denied', payload, metadata: { layer: denial.layer, reason: denial.reason } }])
      .catch((error: unknown) => logger.warn({ err: error, denial: payload }, 'could not record a permission denial'));
  };
}
