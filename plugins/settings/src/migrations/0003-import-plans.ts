import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * Plans of configuration imports (`POST /settings/imports`): the document, the changes it makes,
 * the fingerprint of the state they were computed from (a later change makes the plan stale) and
 * until when it may be applied; `applied_at` once applied (a plan applies once).
 */
export const importPlans: AppMigration = {
  name: '0003-import-plans',
  async up({ query }) {
    await query(
      tenantTable('import_plans', {
        columns: {
          id: 'uuid NOT NULL',
          fingerprint: 'char(64) NOT NULL',
          document: "jsonb NOT NULL CHECK (jsonb_typeof(document) = 'object')",
          changes: "jsonb NOT NULL CHECK (jsonb_typeof(changes) = 'object')",
          created_by: 'uuid NOT NULL',
          expires_at: 'timestamptz NOT NULL',
          applied_at: 'timestamptz',
          applied_by: 'uuid',
        },
      }),
    );
  },
  async down({ query }) {
    await query('DROP TABLE import_plans');
  },
};
