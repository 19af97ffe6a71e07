import type { Sequelize } from 'sequelize';
import type { ParsedDelivery } from '@wpk/sdk';
import { AUDITED_ACTIONS, conventionalHandlerPath, type EventBus } from '../events/index.js';

/** The activity-trail row a `system.security.*` event becomes: who acted, on what. */
export function auditEntry(event: ParsedDelivery): { actor: string | null; targetType: string | null; targetId: string | null } {
  const payload = event.payload;
  const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : null);
  switch (event.action) {
    case 'system.security.role.created':
      return { actor: text(payload.created_by), targetType: 'role', targetId: text(payload.role_id) };
    case 'system.security.permission.denied':
      return { actor: text(payload.member_id), targetType: 'permission', targetId: text(payload.permission) };
    default: {
      const actor = Object.entries(payload).find(([key]) => key.endsWith('_by'))?.[1];
      return { actor: text(actor) ?? text(payload.member_id), targetType: null, targetId: null };
    }
  }
}

/**
 * The audit trail: a subscription of the runtime to every `system.security.*` action, delivered
 * like any other (signed, retried). Each event becomes one row of `platform.activity` (the trail
 * behind GET /activity and the activity exports) whose id is the event id, so a redelivery or a
 * replay never writes it twice. `action` is the event's action, `details` its payload.
 */
export function installAuditTrail(events: EventBus, sequelize: Sequelize): void {
  events.addRuntimeSubscriptions(
    AUDITED_ACTIONS.map((action) => ({
      action,
      handler: conventionalHandlerPath(action),
      max_retries: 5,
      run: async (event: ParsedDelivery) => {
        const { actor, targetType, targetId } = auditEntry(event);
        const eventId = typeof event.metadata.event_id === 'string' ? event.metadata.event_id : event.deliveryId;
        const emittedAt = typeof event.metadata.emitted_at === 'string' ? event.metadata.emitted_at : new Date().toISOString();
        await sequelize.query(
          `INSERT INTO platform.activity (id, workspace_id, actor_member_id, actor_email, action, target_type, target_id, details, created_at)
           SELECT CAST(:id AS uuid), CAST(:workspaceId AS uuid), m.id, a.email, :action, :targetType, :targetId, CAST(:details AS jsonb), CAST(:at AS timestamptz)
             FROM (SELECT 1) one
             LEFT JOIN platform.members m ON m.id::text = :actor AND m.workspace_id = CAST(:workspaceId AS uuid)
             LEFT JOIN platform.accounts a ON a.id = m.account_id
           ON CONFLICT (workspace_id, id) DO NOTHING`,
          {
            replacements: {
              id: eventId,
              workspaceId: event.workspaceId,
              actor: actor ?? '',
              action: event.action,
              targetType,
              targetId,
              details: JSON.stringify(event.payload),
              at: emittedAt,
            },
          },
        );
      },
    })),
  );
}
