import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The app's copy of Growth's competencies (fed by `core.growth.competency.*`), which evaluation
 * criteria reference by `competency_mrn`: the highest revision seen wins; a deleted competency
 * stays as a tombstone (`deleted`), so a late created/updated delivery cannot bring it back.
 */
export const createCompetencyCopy: AppMigration = {
  name: '0004-competency-copy',
  async up({ query }) {
    await query(tenantTable('competencies', { columns: { id: 'uuid NOT NULL', name: 'varchar(200) NOT NULL', revision: 'integer NOT NULL', deleted: 'boolean NOT NULL DEFAULT false' } }));
  },
  async down({ query }) {
    await query('DROP TABLE competencies');
  },
};
