import type { Migration } from '../migrations.js';

/**
 * Workspace API keys. The secret is never stored: only its SHA-256 hash and its first 12
 * characters (the prefix shown in lists). Each key has an audit trail of what was done to it,
 * which goes with the key when the key is deleted.
 */
export const migration: Migration = {
  name: '0500-api-keys',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        member_id uuid NOT NULL,
        name varchar(100) NOT NULL,
        prefix char(12) NOT NULL,
        secret_hash char(64) NOT NULL,
        full_access boolean NOT NULL DEFAULT false,
        scopes jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(scopes) = 'array'),
        status varchar(10) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
        expires_at timestamptz,
        last_used_at timestamptz,
        created_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (workspace_id, member_id) REFERENCES platform.members (workspace_id, id) ON DELETE CASCADE
      );
      CREATE UNIQUE INDEX api_keys_secret_hash_key ON platform.api_keys (secret_hash);
      CREATE INDEX api_keys_workspace_idx ON platform.api_keys (workspace_id, created_at, id);

      CREATE TABLE platform.api_key_audit (
        id bigserial PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        key_id uuid NOT NULL REFERENCES platform.api_keys(id) ON DELETE CASCADE,
        action varchar(20) NOT NULL,
        actor_member_id uuid,
        changes jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX api_key_audit_key_idx ON platform.api_key_audit (key_id, id);
    `);
  },
  async down({ sequelize }) {
    await sequelize.query('DROP TABLE platform.api_key_audit; DROP TABLE platform.api_keys;');
  },
};
