import type { Migration } from '../migrations.js';

/**
 * Notifications sent for an event (notifications/senders.ts) keep the event's id: a redelivered
 * event finds its notification there and notifies no one twice.
 */
export const migration: Migration = {
  name: '0870-notification-events',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE platform.notifications ADD COLUMN source_event_id uuid;
      CREATE UNIQUE INDEX notifications_source_event_key ON platform.notifications (workspace_id, member_id, source_event_id) WHERE source_event_id IS NOT NULL;
    `);
  },
  async down({ sequelize }) {
    await sequelize.query('DROP INDEX platform.notifications_source_event_key; ALTER TABLE platform.notifications DROP COLUMN source_event_id;');
  },
};
