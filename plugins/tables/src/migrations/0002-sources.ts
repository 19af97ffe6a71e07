import { tenantTable, type AppMigration } from '@wpk/sdk';

/** The copies of other apps' records an MRN field names (fed by their events): name, and whether the source was deleted. */
export const createSources: AppMigration = {
  name: '0002-sources',
  async up({ query }) {
    await query(
      tenantTable('sources', {
        columns: {
          id: 'uuid NOT NULL',
          mrn: 'varchar(300) NOT NULL',
          kind: "varchar(20) NOT NULL CHECK (kind IN ('member', 'worker', 'company', 'contact', 'task'))",
          name: 'varchar(500) NOT NULL',
          deleted: 'boolean NOT NULL DEFAULT false',
          revision: 'integer NOT NULL DEFAULT 0',
        },
        unique: [['mrn']],
      }),
    );
  },
  async down({ query }) {
    await query('DROP TABLE sources');
  },
};
