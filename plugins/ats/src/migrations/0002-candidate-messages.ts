import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * Messages to candidates (`POST /ats/candidates/{id}/messages` and the `notify_candidate` mails
 * of the status, stage, interview and offer operations): each mail as it was sent, kept as the
 * candidate's message history. An interview counts its calendar revisions (`calendar_sequence`,
 * iCalendar's SEQUENCE), so an update or cancellation replaces the invitation the candidate has.
 */
export const createCandidateMessages: AppMigration = {
  name: '0002-candidate-messages',
  async up({ query }) {
    await query(tenantTable('messages', {
      columns: {
        id: 'uuid NOT NULL',
        candidate_id: 'uuid NOT NULL',
        application_id: 'uuid',
        template_id: 'uuid',
        trigger: 'varchar(30) NOT NULL',
        to_email: 'varchar(320) NOT NULL',
        reply_to: 'varchar(320)',
        subject: 'varchar(998) NOT NULL',
        body_html: 'text NOT NULL',
        body_text: 'text NOT NULL',
        calendar_method: 'varchar(10)',
        sent_by: 'varchar(200)',
      },
      references: { candidate_id: { table: 'candidates' } },
    }));
    await query(`
      CREATE INDEX messages_candidate_idx ON messages (workspace_id, candidate_id, created_at);
      ALTER TABLE interviews ADD COLUMN calendar_sequence integer NOT NULL DEFAULT 0, ADD COLUMN organizer_email varchar(320);
    `);
  },
  async down({ query }) {
    await query('ALTER TABLE interviews DROP COLUMN calendar_sequence, DROP COLUMN organizer_email; DROP TABLE messages');
  },
};
