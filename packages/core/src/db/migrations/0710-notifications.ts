import type { Migration } from '../migrations.js';

/**
 * Notifications (issue 18): each notification's channel, members' preferences per channel, and
 * where to push: browsers' web-push subscriptions and phones' device tokens. Every key leads
 * with the workspace (the distribution column); the member references are composite.
 */
export const migration: Migration = {
  name: '0710-notifications',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE platform.notifications ADD COLUMN channel varchar(40) NOT NULL DEFAULT 'system';
      UPDATE platform.notifications SET channel = 'apps' WHERE kind LIKE 'app.%';

      CREATE TABLE platform.notification_preferences (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        member_id uuid NOT NULL,
        channel varchar(40) NOT NULL,
        enabled boolean NOT NULL,
        toast boolean NOT NULL,
        push boolean NOT NULL,
        sound varchar(50) NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, member_id, channel),
        FOREIGN KEY (workspace_id, member_id) REFERENCES platform.members (workspace_id, id) ON DELETE CASCADE
      );

      CREATE TABLE platform.push_subscriptions (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        member_id uuid NOT NULL,
        endpoint varchar(2000) NOT NULL,
        p256dh varchar(200) NOT NULL,
        auth varchar(100) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (workspace_id, id),
        UNIQUE (workspace_id, endpoint),
        FOREIGN KEY (workspace_id, member_id) REFERENCES platform.members (workspace_id, id) ON DELETE CASCADE
      );
      CREATE INDEX push_subscriptions_member_idx ON platform.push_subscriptions (workspace_id, member_id);

      CREATE TABLE platform.push_devices (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        member_id uuid NOT NULL,
        token varchar(4096) NOT NULL,
        platform varchar(20) NOT NULL CHECK (platform IN ('ios', 'android')),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (workspace_id, id),
        UNIQUE (workspace_id, token),
        FOREIGN KEY (workspace_id, member_id) REFERENCES platform.members (workspace_id, id) ON DELETE CASCADE
      );
      CREATE INDEX push_devices_member_idx ON platform.push_devices (workspace_id, member_id);
    `);
  },
  async down({ sequelize }) {
    await sequelize.query(`
      DROP TABLE platform.push_devices;
      DROP TABLE platform.push_subscriptions;
      DROP TABLE platform.notification_preferences;
      ALTER TABLE platform.notifications DROP COLUMN channel;
    `);
  },
};
