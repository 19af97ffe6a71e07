import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * A worker's contracts: type, dates, hours per week and working calendar (a settings calendar by
 * MRN). A worker's contracts never overlap; the service checks that under the worker's row lock,
 * so two concurrent writes for one worker take turns.
 */
export const createContracts: AppMigration = {
  name: '0002-create-contracts',
  async up({ query }) {
    await query(
      tenantTable('contracts', {
        columns: {
          id: 'uuid NOT NULL',
          worker_id: 'uuid NOT NULL',
          contract_type: "varchar(20) NOT NULL CHECK (contract_type IN ('permanent', 'fixed_term', 'freelance', 'internship'))",
          starts_on: 'date NOT NULL',
          ends_on: 'date CHECK (ends_on IS NULL OR ends_on >= starts_on)',
          hours_per_week: 'numeric(5,2) NOT NULL CHECK (hours_per_week > 0 AND hours_per_week <= 168)',
          calendar_mrn: 'varchar(200)',
          revision: 'integer NOT NULL DEFAULT 1 CHECK (revision >= 1)',
        },
        references: { worker_id: { table: 'workers' } },
      }),
    );
    await query('CREATE INDEX contracts_worker_idx ON contracts (workspace_id, worker_id, starts_on)');
  },
  async down({ query }) {
    await query('DROP TABLE contracts');
  },
};
