import type { Migration } from '../migrations.js';

/** Extensions the platform relies on, and the tenants table. */
export const migration: Migration = {
  name: '0001-platform-base',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
      CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;
      CREATE EXTENSION IF NOT EXISTS unaccent;
      CREATE TABLE platform.workspaces (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        subdomain varchar(63) NOT NULL,
        name varchar(200) NOT NULL,
        plan varchar(40) NOT NULL DEFAULT 'free',
        billing_interval varchar(10) NOT NULL DEFAULT 'monthly' CHECK (billing_interval IN ('monthly', 'annual')),
        status varchar(20) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'deleted')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX workspaces_subdomain_key ON platform.workspaces (lower(subdomain));
    `);
  },
  async down({ sequelize }) {
    await sequelize.query(`DROP TABLE platform.workspaces;`);
  },
};
