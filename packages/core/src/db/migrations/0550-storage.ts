import type { Migration } from '../migrations.js';

/**
 * File storage (`ctx.storage`, avatars): one row per object of a workspace and namespace (an
 * app's, or `platform`), naming the blob that holds its bytes in the storage driver. A write
 * makes a new blob and repoints the row, so a rolled-back request leaves the previous object.
 * The workspace id leads the key (the distribution column); no trigger, no SET NULL.
 */
export const migration: Migration = {
  name: '0550-storage',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.storage_objects (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        namespace varchar(200) NOT NULL,
        key text NOT NULL CHECK (octet_length(key) BETWEEN 1 AND 1024),
        blob text NOT NULL,
        size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
        content_type varchar(255) NOT NULL,
        sha256 char(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, namespace, key)
      );
    `);
  },
  async down({ sequelize }) {
    await sequelize.query('DROP TABLE platform.storage_objects;');
  },
};
