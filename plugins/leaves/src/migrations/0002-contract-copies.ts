import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The Workers app's contracts as this app keeps them (fed by `core.workers.contract.*`): which
 * working calendar counts a worker's days, contract by contract. A deleted contract stays as a
 * tombstone (`deleted`), so a late `updated` of a lower revision cannot bring it back.
 */
export const createContractCopies: AppMigration = {
  name: '0002-contract-copies',
  async up({ query }) {
    await query(
      tenantTable('contracts', {
        columns: { id: 'uuid NOT NULL', worker_id: 'uuid NOT NULL', starts_on: 'date NOT NULL', ends_on: 'date', calendar_id: 'uuid', deleted: 'boolean NOT NULL DEFAULT false', revision: 'integer NOT NULL' },
      }),
    );
    await query('CREATE INDEX contracts_worker_idx ON contracts (workspace_id, worker_id, starts_on)');
  },
  async down({ query }) {
    await query('DROP TABLE contracts');
  },
};
