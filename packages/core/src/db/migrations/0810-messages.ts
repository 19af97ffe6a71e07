import type { Migration } from '../migrations.js';

/**
 * The platform's own messages to a workspace's admins (docs/billing.md, "Messages"): threads by
 * topic (one `billing` thread per workspace) with their messages, and the release notes, which
 * are the same for every workspace (one thread per version, read from `release_notes`).
 */
export const migration: Migration = {
  name: '0810-messages',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.message_threads (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        topic varchar(20) NOT NULL CHECK (topic IN ('billing')),
        subject varchar(200) NOT NULL,
        created_at timestamptz NOT NULL,
        last_message_at timestamptz NOT NULL,
        PRIMARY KEY (workspace_id, id),
        UNIQUE (workspace_id, topic)
      );
      CREATE TABLE platform.messages (
        workspace_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        thread_id uuid NOT NULL,
        body varchar(2000) NOT NULL,
        link varchar(300),
        created_at timestamptz NOT NULL,
        PRIMARY KEY (workspace_id, id),
        FOREIGN KEY (workspace_id, thread_id) REFERENCES platform.message_threads (workspace_id, id) ON DELETE CASCADE
      );
      CREATE INDEX messages_thread_idx ON platform.messages (workspace_id, thread_id, created_at);
      CREATE TABLE platform.release_notes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        version varchar(40) NOT NULL,
        title varchar(200) NOT NULL,
        body varchar(10000) NOT NULL,
        published_at timestamptz NOT NULL
      );
      CREATE INDEX release_notes_version_idx ON platform.release_notes (version, published_at);
    `);
  },
  async down({ sequelize }) {
    await sequelize.query('DROP TABLE platform.release_notes; DROP TABLE platform.messages; DROP TABLE platform.message_threads;');
  },
};
