import type { Migration } from '../migrations.js';

/**
 * A phone's token is unique per workspace by its SHA-256: a btree entry holds at most 2,704 bytes,
 * so the unique index on the token itself made a token of the allowed 4,096 characters fail to
 * insert (a 500, issue 38).
 */
export const migration: Migration = {
  name: '0910-push-device-token-hash',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE platform.push_devices ADD COLUMN token_sha256 char(64);
      UPDATE platform.push_devices SET token_sha256 = encode(sha256(convert_to(token, 'UTF8')), 'hex');
      ALTER TABLE platform.push_devices ALTER COLUMN token_sha256 SET NOT NULL;
      ALTER TABLE platform.push_devices DROP CONSTRAINT push_devices_workspace_id_token_key;
      ALTER TABLE platform.push_devices ADD CONSTRAINT push_devices_workspace_id_token_sha256_key UNIQUE (workspace_id, token_sha256);
    `);
  },
  async down({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE platform.push_devices DROP CONSTRAINT push_devices_workspace_id_token_sha256_key;
      ALTER TABLE platform.push_devices ADD CONSTRAINT push_devices_workspace_id_token_key UNIQUE (workspace_id, token);
      ALTER TABLE platform.push_devices DROP COLUMN token_sha256;
    `);
  },
};
