import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The Meetings app's tables, in its own schema (`app_meetings`), keyed by workspace
 * (docs/scale-out.md). An attendee is a member (unique per meeting; `email`, when given, is only
 * where to mail them) or an outside address (unique per meeting, stored in lower case).
 */
export const createMeetingsTables: AppMigration = {
  name: '0001-create-meetings-tables',
  async up({ query }) {
    await query(
      tenantTable('meetings', {
        columns: {
          id: 'uuid NOT NULL',
          title: 'varchar(200) NOT NULL',
          description: "text NOT NULL DEFAULT ''",
          location: "varchar(500) NOT NULL DEFAULT ''",
          starts_at: 'timestamptz NOT NULL',
          ends_at: 'timestamptz NOT NULL',
          organizer_id: 'uuid NOT NULL',
          organizer_name: "varchar(200) NOT NULL DEFAULT ''",
          organizer_email: 'varchar(254) NOT NULL',
          status: "varchar(10) NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'cancelled'))",
          sequence: 'integer NOT NULL DEFAULT 0',
          cancelled_at: 'timestamptz',
        },
      }),
    );
    await query(
      tenantTable('attendees', {
        columns: {
          id: 'uuid NOT NULL',
          meeting_id: 'uuid NOT NULL',
          member_id: 'uuid',
          email: 'varchar(254)',
          name: 'varchar(200)',
          position: 'integer NOT NULL DEFAULT 0',
          status: "varchar(12) NOT NULL DEFAULT 'needs_action' CHECK (status IN ('needs_action', 'accepted', 'declined', 'tentative'))",
          responded_at: 'timestamptz',
          added_by: 'uuid NOT NULL',
        },
        unique: [['meeting_id', 'member_id']],
        references: { meeting_id: { table: 'meetings' } },
      }),
    );
    await query(
      tenantTable('meeting_calls', {
        columns: { call_id: 'varchar(100) NOT NULL', meeting_id: 'uuid', join_url: 'varchar(2000)', scheduled_at: 'timestamptz' },
        primaryKey: ['call_id'],
        references: { meeting_id: { table: 'meetings' } },
      }),
    );
    await query(
      tenantTable('member_addresses', {
        columns: { member_id: 'uuid NOT NULL', email: 'varchar(254) NOT NULL', name: "varchar(200) NOT NULL DEFAULT ''", removed_at: 'timestamptz' },
        primaryKey: ['member_id'],
      }),
    );
    await query(
      tenantTable('presignations', {
        columns: {
          id: 'uuid NOT NULL',
          meeting_id: 'uuid NOT NULL',
          purpose: "varchar(12) NOT NULL CHECK (purpose IN ('recording', 'attachment'))",
          filename: 'varchar(255) NOT NULL',
          content_type: 'varchar(255) NOT NULL',
          max_bytes: 'bigint NOT NULL CHECK (max_bytes > 0)',
          storage_key: 'varchar(1024) NOT NULL',
          expires_at: 'timestamptz NOT NULL',
          status: "varchar(10) NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'used', 'revoked'))",
          created_by: 'uuid NOT NULL',
          used_at: 'timestamptz',
          revoked_at: 'timestamptz',
          revoked_by: 'uuid',
          file_id: 'uuid',
        },
        references: { meeting_id: { table: 'meetings' } },
      }),
    );
    await query(
      tenantTable('meeting_files', {
        columns: {
          id: 'uuid NOT NULL',
          meeting_id: 'uuid NOT NULL',
          presignation_id: 'uuid NOT NULL',
          purpose: "varchar(12) NOT NULL CHECK (purpose IN ('recording', 'attachment'))",
          filename: 'varchar(255) NOT NULL',
          content_type: 'varchar(255) NOT NULL',
          size_bytes: 'bigint NOT NULL',
          sha256: 'varchar(64) NOT NULL',
          storage_key: 'varchar(1024) NOT NULL',
          uploaded_by: 'uuid NOT NULL',
        },
        unique: [['presignation_id']],
        references: { meeting_id: { table: 'meetings' }, presignation_id: { table: 'presignations' } },
      }),
    );
    await query('CREATE UNIQUE INDEX attendees_email_idx ON attendees (workspace_id, meeting_id, email) WHERE member_id IS NULL');
    await query('CREATE INDEX attendees_member_idx ON attendees (workspace_id, member_id); CREATE INDEX meetings_starts_idx ON meetings (workspace_id, starts_at)');
  },
  async down({ query }) {
    await query('DROP TABLE meeting_files, presignations, member_addresses, meeting_calls, attendees, meetings');
  },
};
