import type { Migration } from '../migrations.js';

/**
 * Stored notifications get the links the senders write now (docs/notifications.md, records 0331
 * and the bell's app pages): before, the bell opened API routes that answer JSON. Each old form is
 * matched whole, so a link already in the new form, or one no sender wrote, is left as it is:
 * - an invoice's `/invoices/{id}` → its row on the owner's settings page, `/admin/settings#invoice-{id}`;
 * - a chat's `/chats/{id}/messages` (added to a chat, a call requested) → `/app/chat/chats/{id}`;
 * - an assigned task's `/tasks/{id}` → `/app/tasks/tasks/{id}`;
 * - a scheduled call or its reminder (the join URL, or none) → `/app/calls/calls/{call_id}`;
 * - an install or access request's `/applications/{slug}/status` or `/apps/{slug}/access` →
 *   the Apps screen at that app, `/admin/apps#app-{slug}`;
 * - a mention's path of the emitting app's front-end → under `/app/{emitter}`, the emitter read
 *   from the notification's source event while the outbox still holds it (a mention whose event
 *   is gone keeps its link).
 * The down migration leaves the links as they are: the old ones led nowhere a person could use.
 */
export const migration: Migration = {
  name: '0930-notification-links',
  async up({ sequelize }) {
    await sequelize.query(`
      UPDATE platform.notifications SET link = '/admin/settings#invoice-' || substring(link FROM '^/invoices/([^/?#]+)$')
       WHERE link ~ '^/invoices/[^/?#]+$';
      UPDATE platform.notifications SET link = '/app/chat/chats/' || substring(link FROM '^/chats/([^/?#]+)/messages$')
       WHERE link ~ '^/chats/[^/?#]+/messages$';
      UPDATE platform.notifications SET link = '/app/tasks/tasks/' || substring(link FROM '^/tasks/([^/?#]+)$')
       WHERE link ~ '^/tasks/[^/?#]+$';
      UPDATE platform.notifications SET link = '/app/calls/calls/' || (data->>'call_id')
       WHERE kind IN ('calls.scheduled', 'calls.reminder') AND data->>'call_id' ~ '^[0-9A-Za-z-]+$'
         AND (link IS NULL OR link NOT LIKE '/app/calls/calls/%');
      UPDATE platform.notifications SET link = '/admin/apps#app-' || substring(link FROM '^/applications/([^/?#]+)/status$')
       WHERE link ~ '^/applications/[^/?#]+/status$';
      UPDATE platform.notifications SET link = '/admin/apps#app-' || substring(link FROM '^/apps/([^/?#]+)/access$')
       WHERE link ~ '^/apps/[^/?#]+/access$';
      UPDATE platform.notifications n SET link = '/app/' || e.emitter || n.link
        FROM platform.events e
       WHERE n.kind = 'mentions.mentioned' AND n.link ~ '^/[^/]' AND n.link NOT LIKE '/app/%'
         AND e.workspace_id = n.workspace_id AND e.id = n.source_event_id;
    `);
  },
  async down() {
    // Nothing to undo: the old links led to JSON routes.
  },
};
