import type { Migration } from '../migrations.js';

/**
 * Demo requests made from inside a workspace (`POST /demo-requests`, docs/operators.md): who asked,
 * and what they want to see. Each is mailed to the operator as the site's demo form is; the rows
 * let the workspace's owners and admins see what was asked (`GET /demo-requests`, `/partials/demos`).
 */
export const migration: Migration = {
  name: '0860-demo-requests',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.demo_requests (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        member_id uuid NOT NULL,
        message varchar(5000) NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (workspace_id, id)
      );
      CREATE INDEX demo_requests_listing_idx ON platform.demo_requests (workspace_id, created_at DESC);
    `);
  },
  async down({ sequelize }) {
    await sequelize.query('DROP TABLE platform.demo_requests;');
  },
};
