import type { Migration } from '../migrations.js';

/**
 * Identity: accounts (people), members (account × workspace), custom roles and their
 * assignment, server-side sessions, and the one-time tokens of sign-up, invitations and
 * password resets. Secrets are never stored: only SHA-256 hashes of tokens and session ids,
 * scrypt hashes of passwords, and the TOTP secret encrypted (AES-256-GCM).
 */
export const migration: Migration = {
  name: '0100-identity',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email varchar(254) NOT NULL,
        name varchar(200) NOT NULL,
        password_hash text,
        security_stamp uuid NOT NULL DEFAULT gen_random_uuid(),
        email_verified_at timestamptz,
        totp_secret text,
        totp_pending_secret text,
        totp_enabled_at timestamptz,
        totp_last_step bigint,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX accounts_email_key ON platform.accounts (lower(email));

      CREATE TABLE platform.recovery_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES platform.accounts(id) ON DELETE CASCADE,
        code_hash char(64) NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX recovery_codes_account_hash_key ON platform.recovery_codes (account_id, code_hash);

      CREATE TABLE platform.members (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES platform.accounts(id) ON DELETE CASCADE,
        platform_role varchar(10) NOT NULL CHECK (platform_role IN ('owner', 'admin', 'member')),
        state varchar(10) NOT NULL CHECK (state IN ('invited', 'joined')),
        deactivated_at timestamptz,
        invited_by uuid REFERENCES platform.members(id) ON DELETE SET NULL,
        joined_at timestamptz,
        avatar_key text,
        avatar_content_type varchar(20),
        avatar_updated_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (workspace_id, id)
      );
      CREATE UNIQUE INDEX members_workspace_account_key ON platform.members (workspace_id, account_id);
      CREATE INDEX members_account_idx ON platform.members (account_id);
      -- Exactly one owner per workspace: never two (this index); never none (ownership only moves by transfer).
      CREATE UNIQUE INDEX members_one_owner_key ON platform.members (workspace_id) WHERE platform_role = 'owner';

      CREATE TABLE platform.roles (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        permissions jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(permissions) = 'object'),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (workspace_id, id)
      );
      CREATE UNIQUE INDEX roles_workspace_name_key ON platform.roles (workspace_id, lower(name));

      CREATE TABLE platform.member_roles (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        member_id uuid NOT NULL,
        role_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (member_id, role_id),
        FOREIGN KEY (workspace_id, member_id) REFERENCES platform.members (workspace_id, id) ON DELETE CASCADE,
        FOREIGN KEY (workspace_id, role_id) REFERENCES platform.roles (workspace_id, id) ON DELETE CASCADE
      );
      CREATE INDEX member_roles_role_idx ON platform.member_roles (role_id);

      CREATE TABLE platform.sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash char(64) NOT NULL UNIQUE,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        member_id uuid NOT NULL REFERENCES platform.members(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES platform.accounts(id) ON DELETE CASCADE,
        security_stamp uuid NOT NULL,
        elevated_until timestamptz,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX sessions_account_idx ON platform.sessions (account_id);
      CREATE INDEX sessions_member_idx ON platform.sessions (member_id);
      CREATE INDEX sessions_workspace_idx ON platform.sessions (workspace_id);

      CREATE TABLE platform.signups (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email varchar(254) NOT NULL,
        name varchar(200) NOT NULL,
        workspace_name varchar(200) NOT NULL,
        subdomain varchar(63) NOT NULL,
        code_hash char(64) NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE platform.invitations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        member_id uuid NOT NULL REFERENCES platform.members(id) ON DELETE CASCADE,
        token_hash char(64) NOT NULL UNIQUE,
        invited_by uuid REFERENCES platform.members(id) ON DELETE SET NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX invitations_member_idx ON platform.invitations (member_id);

      CREATE TABLE platform.password_resets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES platform.accounts(id) ON DELETE CASCADE,
        token_hash char(64) NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX password_resets_account_idx ON platform.password_resets (account_id);

      -- One row per counted attempt (failed sign-in, wrong TOTP code, ...), keyed by what is throttled.
      CREATE TABLE platform.throttle_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        key varchar(300) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX throttle_events_key_idx ON platform.throttle_events (key, created_at);

      -- What admins did while elevated. Views coalesce: one row per (actor, action, target), hits counts them.
      CREATE TABLE platform.admin_audit (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        actor_member_id uuid NOT NULL REFERENCES platform.members(id) ON DELETE CASCADE,
        kind varchar(10) NOT NULL CHECK (kind IN ('elevation', 'view', 'change')),
        action varchar(300) NOT NULL,
        target varchar(1000) NOT NULL,
        reason varchar(500),
        status integer,
        hits integer NOT NULL DEFAULT 1,
        first_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        last_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE UNIQUE INDEX admin_audit_view_key ON platform.admin_audit (workspace_id, actor_member_id, action, target) WHERE kind = 'view';
      CREATE INDEX admin_audit_workspace_idx ON platform.admin_audit (workspace_id, last_at DESC);

      -- The workspace's activity trail (sign-ins, invitations, role changes, ...).
      CREATE TABLE platform.activity (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        actor_member_id uuid REFERENCES platform.members(id) ON DELETE SET NULL,
        actor_email varchar(254),
        action varchar(100) NOT NULL,
        target_type varchar(50),
        target_id varchar(200),
        details jsonb NOT NULL DEFAULT '{}',
        ip varchar(64),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX activity_workspace_idx ON platform.activity (workspace_id, created_at DESC, seq DESC);
    `);
  },
  async down({ sequelize }) {
    await sequelize.query(`
      DROP TABLE platform.activity;
      DROP TABLE platform.admin_audit;
      DROP TABLE platform.throttle_events;
      DROP TABLE platform.password_resets;
      DROP TABLE platform.invitations;
      DROP TABLE platform.signups;
      DROP TABLE platform.sessions;
      DROP TABLE platform.member_roles;
      DROP TABLE platform.roles;
      DROP TABLE platform.members;
      DROP TABLE platform.recovery_codes;
      DROP TABLE platform.accounts;
    `);
  },
};
