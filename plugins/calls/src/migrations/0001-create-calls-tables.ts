import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The Calls app's tables, in its own schema (`app_calls`), keyed by workspace (docs/scale-out.md).
 * `calls.source_key` is unique per workspace: a call asked for by another app's event is made
 * once however often the event arrives.
 */
export const createCallsTables: AppMigration = {
  name: '0001-create-calls-tables',
  async up({ query }) {
    await query(
      tenantTable('calls', {
        columns: {
          id: 'uuid NOT NULL',
          type: "varchar(10) NOT NULL CHECK (type IN ('instant', 'scheduled'))",
          mode: "varchar(10) NOT NULL CHECK (mode IN ('video', 'audio'))",
          title: 'varchar(200) NOT NULL',
          status: "varchar(10) NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'active', 'ended', 'cancelled'))",
          creator_id: 'uuid NOT NULL',
          source_mrn: 'varchar(200)',
          source_key: 'varchar(200)',
          scheduled_at: 'timestamptz',
          started_at: 'timestamptz',
          ended_at: 'timestamptz',
          participant_count: 'integer NOT NULL DEFAULT 0',
        },
        unique: [['source_key']],
      }),
    );
    await query(
      tenantTable('participants', {
        columns: {
          call_id: 'uuid NOT NULL',
          member_id: 'uuid NOT NULL',
          role: "varchar(12) NOT NULL DEFAULT 'participant' CHECK (role IN ('host', 'participant'))",
          joined_at: 'timestamptz',
          first_joined_at: 'timestamptz',
          left_at: 'timestamptz',
        },
        primaryKey: ['call_id', 'member_id'],
        references: { call_id: { table: 'calls' } },
      }),
    );
    await query('CREATE INDEX participants_member_idx ON participants (workspace_id, member_id)',
    );
    await query(
      tenantTable('recordings', {
        columns: {
          id: 'uuid NOT NULL',
          call_id: 'uuid NOT NULL',
          status: "varchar(10) NOT NULL DEFAULT 'uploading' CHECK (status IN ('uploading', 'ready', 'aborted'))",
          storage_key: 'varchar(300) NOT NULL',
          content_type: 'varchar(40) NOT NULL',
          recorder_id: 'uuid NOT NULL',
          duration_seconds: 'integer',
          size_bytes: 'bigint',
          completed_at: 'timestamptz',
        },
        references: { call_id: { table: 'calls' } },
      }),
    );
    await query(
      tenantTable('member_directory', {
        columns: { member_id: 'uuid NOT NULL', removed_at: 'timestamptz' },
        primaryKey: ['member_id'],
      }),
    );
  },
  async down({ query }) {
    await query('DROP TABLE member_directory; DROP TABLE recordings; DROP TABLE participants; DROP TABLE calls');
  },
};
