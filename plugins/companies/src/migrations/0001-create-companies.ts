import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The Companies app's one table, in its own schema (`app_companies`), keyed by workspace. A
 * domain is unique per workspace only when the settings ask for it, so the database does not
 * enforce it (the service does, under a lock on the domain).
 */
export const createCompanies: AppMigration = {
  name: '0001-create-companies',
  async up({ query }) {
    await query(
      tenantTable('companies', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          domain: 'varchar(253)',
          industry: 'varchar(100)',
          size: 'varchar(20)',
          description: "varchar(5000) NOT NULL DEFAULT ''",
          address: "jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(address) = 'object')",
          owner_id: 'uuid NOT NULL',
          creator_id: 'uuid NOT NULL',
          revision: 'integer NOT NULL DEFAULT 1 CHECK (revision >= 1)',
        },
      }),
    );
    await query('CREATE INDEX companies_name_idx ON companies (workspace_id, name, id)');
    await query('CREATE INDEX companies_domain_idx ON companies (workspace_id, domain)');
  },
  async down({ query }) {
    await query('DROP TABLE companies');
  },
};
