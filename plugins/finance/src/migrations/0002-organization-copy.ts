import { tenantTable, type AppMigration } from '@wpk/sdk';

const COPY = {
  columns: {
    source: "varchar(20) NOT NULL CHECK (source = 'settings')",
    base_currency: "char(3) NOT NULL CHECK (base_currency ~ '^[A-Z]{3}$')",
    revision: 'integer NOT NULL CHECK (revision >= 1)',
  },
  primaryKey: ['source'],
};

/**
 * Finance's copy of the organisation profile the Settings app announces
 * (`core.settings.organization.updated`): the base currency and the revision it came with, one
 * row per workspace (`source` is always `settings`).
 */
export const createOrganizationCopy: AppMigration = {
  name: '0002-organization-copy',
  async up({ query }) {
    await query(tenantTable('organization_copy', COPY));
  },
  async down({ query }) {
    await query('DROP TABLE organization_copy');
  },
};
