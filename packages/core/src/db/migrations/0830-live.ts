import type { Migration } from '../migrations.js';

/**
 * Live updates (live/): one row per channel of a workspace holding its last event id, and the
 * channel's bounded log of recent events (what a reconnecting client replays from its last id).
 * A publish updates the channel row first, so the ids of one channel follow commit order. The
 * workspace id leads every key (the distribution column). `audience` (member ids) narrows who
 * may receive an event; null: every subscriber the channel admits. `live_presence` holds one row per
 * subscribed socket (any process), so a subscriber learns who else is there.
 */
export const migration: Migration = {
  name: '0830-live',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.live_channels (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        channel varchar(300) NOT NULL,
        last_id bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, channel)
      );
      CREATE TABLE platform.live_events (
        workspace_id uuid NOT NULL,
        channel varchar(300) NOT NULL,
        id bigint NOT NULL,
        type varchar(100) NOT NULL,
        data jsonb NOT NULL,
        audience uuid[],
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, channel, id),
        FOREIGN KEY (workspace_id, channel) REFERENCES platform.live_channels(workspace_id, channel) ON DELETE CASCADE
      );
      CREATE TABLE platform.live_presence (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        channel varchar(300) NOT NULL,
        connection_id uuid NOT NULL,
        member_id uuid NOT NULL,
        process_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, channel, connection_id)
      );
    `);
  },
  async down({ sequelize }) {
    await sequelize.query('DROP TABLE platform.live_presence; DROP TABLE platform.live_events; DROP TABLE platform.live_channels;');
  },
};
