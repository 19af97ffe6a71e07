import type { Migration } from '../migrations.js';

/**
 * Names one workspace of the platform holds at a time, per app and kind (`ctx.claims`: a mail
 * domain proven by its DNS). Coordinator-only (docs/scale-out.md): the one place such a name is
 * unique across workspaces, and read before the workspace is known (mail arriving for a domain).
 */
export const migration: Migration = {
  name: '0900-name-claims',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.name_claims (
        app varchar(120) NOT NULL,
        kind varchar(40) NOT NULL,
        name varchar(300) NOT NULL,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        claimed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (app, kind, name)
      );
      CREATE INDEX name_claims_workspace_idx ON platform.name_claims (workspace_id);
    `);
  },
  async down({ sequelize }) {
    await sequelize.query('DROP TABLE platform.name_claims;');
  },
};
