import type { Migration } from '../migrations.js';

/**
 * The people who run the platform (docs/operators.md): operators with a credential (`wpo_…`, made
 * by `wpk operator add`; only its SHA-256 hash and first 12 characters are kept), preview apps and
 * the workspaces that adopted them.
 */
export const migration: Migration = {
  name: '0820-operators',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.operators (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email varchar(254) NOT NULL,
        name varchar(100) NOT NULL,
        prefix char(12) NOT NULL,
        secret_hash char(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX operators_email_key ON platform.operators (lower(email));
      CREATE UNIQUE INDEX operators_secret_hash_key ON platform.operators (secret_hash);
      CREATE TABLE platform.preview_apps (
        slug varchar(64) PRIMARY KEY,
        name varchar(100) NOT NULL,
        description varchar(500) NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE platform.preview_app_adopters (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        app_slug varchar(64) NOT NULL REFERENCES platform.preview_apps(slug) ON DELETE CASCADE,
        adopted_at timestamptz NOT NULL,
        PRIMARY KEY (workspace_id, app_slug)
      );
    `);
  },
  async down({ sequelize }) {
    await sequelize.query('DROP TABLE platform.preview_app_adopters; DROP TABLE platform.preview_apps; DROP TABLE platform.operators;');
  },
};
