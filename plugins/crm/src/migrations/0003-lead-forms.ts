import { tenantTable, type AppMigration } from '@wpk/sdk';

/** Web-to-lead forms: a public form's name, the token its page and posts name it by, the source its leads carry. */
export const createLeadForms: AppMigration = {
  name: '0003-lead-forms',
  async up({ query }) {
    await query(
      tenantTable('lead_forms', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          token: 'varchar(64) NOT NULL',
          source: "varchar(100) NOT NULL DEFAULT 'web form'",
          active: 'boolean NOT NULL DEFAULT true',
          created_by: 'uuid NOT NULL',
        },
        unique: [['token']],
      }),
    );
  },
  async down({ query }) {
    await query('DROP TABLE lead_forms');
  },
};
