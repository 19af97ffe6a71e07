import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The activity timeline: what other apps' events say happened with a deal, a lead, a contact or a
 * company (a call ended on it, a mail sent to it), one row per subject and source event under a
 * unique key, so a repeated delivery adds nothing; and the round-robin rotations (where the next
 * new lead's owner is taken from the setting's list).
 */
export const createActivities: AppMigration = {
  name: '0002-activities-and-rotations',
  async up({ query }) {
    await query(
      tenantTable('activities', {
        columns: {
          id: 'uuid NOT NULL',
          subject_mrn: 'varchar(200) NOT NULL',
          kind: "varchar(20) NOT NULL CHECK (kind IN ('call', 'mail'))",
          title: 'varchar(300) NOT NULL',
          occurred_at: 'timestamptz NOT NULL',
          source_mrn: 'varchar(200)',
          source_key: 'varchar(300) NOT NULL',
        },
        unique: [['subject_mrn', 'source_key']],
      }),
    );
    await query('CREATE INDEX activities_subject_idx ON activities (workspace_id, subject_mrn, occurred_at)');
    await query(tenantTable('rotations', { columns: { id: 'uuid NOT NULL', name: 'varchar(50) NOT NULL', position: 'integer NOT NULL DEFAULT 0' }, unique: [['name']] }));
  },
  async down({ query }) {
    await query('DROP TABLE rotations; DROP TABLE activities');
  },
};
