import type { Migration } from '../migrations.js';

/**
 * Apps: one installation row per (workspace, app) with its access policy and settings, the
 * install and access requests members make, and the in-app notification store (owners and
 * admins hear about those requests here and by mail). An uninstalled app keeps its row
 * (status `uninstalled`), so its settings survive a reinstall.
 */
export const migration: Migration = {
  name: '0200-apps',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.app_installations (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        app_slug varchar(100) NOT NULL,
        status varchar(12) NOT NULL CHECK (status IN ('installed', 'uninstalled')),
        access_policy varchar(10) NOT NULL DEFAULT 'roles' CHECK (access_policy IN ('everyone', 'roles', 'approval')),
        allowed_roles jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(allowed_roles) = 'array'),
        redlist jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(redlist) = 'array'),
        settings jsonb CHECK (settings IS NULL OR jsonb_typeof(settings) = 'object'),
        installed_by uuid REFERENCES platform.members(id) ON DELETE SET NULL,
        installed_at timestamptz,
        uninstalled_by uuid REFERENCES platform.members(id) ON DELETE SET NULL,
        uninstalled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, app_slug)
      );

      CREATE TABLE platform.app_requests (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        app_slug varchar(100) NOT NULL,
        kind varchar(10) NOT NULL CHECK (kind IN ('install', 'access')),
        member_id uuid NOT NULL,
        message varchar(280),
        created_at timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (workspace_id, member_id) REFERENCES platform.members (workspace_id, id) ON DELETE CASCADE
      );
      CREATE INDEX app_requests_workspace_idx ON platform.app_requests (workspace_id, app_slug, created_at DESC);

      CREATE TABLE platform.notifications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        member_id uuid NOT NULL,
        kind varchar(50) NOT NULL,
        title varchar(200) NOT NULL,
        body varchar(2000) NOT NULL DEFAULT '',
        link varchar(500),
        data jsonb NOT NULL DEFAULT '{}',
        read_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        FOREIGN KEY (workspace_id, member_id) REFERENCES platform.members (workspace_id, id) ON DELETE CASCADE
      );
      CREATE INDEX notifications_recipient_idx ON platform.notifications (workspace_id, member_id, created_at DESC, seq DESC);
    `);
  },
  async down({ sequelize }) {
    await sequelize.query(`
      DROP TABLE platform.notifications;
      DROP TABLE platform.app_requests;
      DROP TABLE platform.app_installations;
    `);
  },
};
