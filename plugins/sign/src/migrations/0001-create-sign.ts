import { tenantTable, type AppMigration } from '@wpk/sdk';

/** Templates, envelopes, their recipients (with their fields), the audit trail and the workspace's signing identity. */
export const createSign: AppMigration = {
  name: '0001-create-sign',
  async up({ query }) {
    await query(
      tenantTable('templates', {
        columns: {
          id: 'uuid NOT NULL', name: 'varchar(200) NOT NULL', description: "varchar(2000) NOT NULL DEFAULT ''", document_key: 'varchar(300) NOT NULL', document_filename: 'varchar(255) NOT NULL',
          document_sha256: 'varchar(64) NOT NULL', page_count: 'integer NOT NULL', roles: "jsonb NOT NULL DEFAULT '[]'", fields: "jsonb NOT NULL DEFAULT '[]'", created_by: 'uuid',
        },
      }),
    );
    await query(
      tenantTable('envelopes', {
        columns: {
          id: 'uuid NOT NULL', title: 'varchar(200) NOT NULL', message: "varchar(4000) NOT NULL DEFAULT ''",
          status: "varchar(20) NOT NULL CHECK (status IN ('draft', 'sent', 'completed', 'declined', 'voided', 'expired'))",
          source_mrn: 'varchar(300) NOT NULL', owner_id: 'uuid NOT NULL', template_id: 'uuid', merge_values: "jsonb NOT NULL DEFAULT '{}'",
          document_key: 'varchar(300) NOT NULL', document_filename: 'varchar(255) NOT NULL', original_sha256: 'varchar(64) NOT NULL', page_count: 'integer NOT NULL',
          final_key: 'varchar(300)', final_sha256: 'varchar(64)', current_group: 'integer', expires_at: 'timestamptz', reminder_days: 'integer',
          sent_at: 'timestamptz', completed_at: 'timestamptz', reason: 'varchar(1000)', delivery_key: 'varchar(300)', revision: 'integer NOT NULL DEFAULT 1',
        },
        unique: [['delivery_key']],
      }),
    );
    await query('CREATE INDEX envelopes_owner_idx ON envelopes (workspace_id, owner_id)');
    await query('CREATE INDEX envelopes_final_idx ON envelopes (workspace_id, final_sha256)');
    await query(
      tenantTable('recipients', {
        columns: {
          id: 'uuid NOT NULL', envelope_id: 'uuid NOT NULL', name: 'varchar(200) NOT NULL', email: 'varchar(254) NOT NULL', member_id: 'uuid',
          role: "varchar(20) NOT NULL CHECK (role IN ('signer', 'approver', 'copy'))", group_no: 'integer NOT NULL', position: 'integer NOT NULL',
          status: "varchar(20) NOT NULL CHECK (status IN ('pending', 'notified', 'viewed', 'signed', 'declined'))", fields: "jsonb NOT NULL DEFAULT '[]'",
          token_sealed: 'text', token_hash: 'varchar(64)', code_hash: 'varchar(64)', code_expires_at: 'timestamptz', code_attempts: 'integer NOT NULL DEFAULT 0',
          mark: 'jsonb', signed_at: 'timestamptz', reason: 'varchar(1000)',
        },
        references: { envelope_id: { table: 'envelopes' } },
        unique: [['token_hash']],
      }),
    );
    await query('CREATE INDEX recipients_envelope_idx ON recipients (workspace_id, envelope_id, group_no)');
    await query('CREATE INDEX recipients_member_idx ON recipients (workspace_id, member_id)');
    await query(
      tenantTable('audit_events', {
        columns: {
          id: 'uuid NOT NULL', envelope_id: 'uuid NOT NULL', recipient_id: 'uuid', action: 'varchar(40) NOT NULL', actor: 'varchar(300) NOT NULL',
          ip: 'varchar(100)', user_agent: 'varchar(500)', details: "jsonb NOT NULL DEFAULT '{}'", at: 'timestamptz NOT NULL',
        },
        references: { envelope_id: { table: 'envelopes' } },
      }),
    );
    await query('CREATE INDEX audit_events_envelope_idx ON audit_events (workspace_id, envelope_id, at)');
    await query(tenantTable('identities', { columns: { id: 'uuid NOT NULL', name: 'varchar(40) NOT NULL', certificate_pem: 'text NOT NULL', key_sealed: 'text NOT NULL' }, unique: [['name']] }));
  },
  async down({ query }) {
    await query('DROP TABLE identities; DROP TABLE audit_events; DROP TABLE recipients; DROP TABLE envelopes; DROP TABLE templates');
  },
};
