import { tenantTable, type AppMigration } from '@wpk/sdk';

/** The account parts whose `account_id` named only hosted mailboxes until connected accounts came. */
const PARTS = ['messages', 'drafts', 'signatures', 'filters', 'blocked_senders'] as const;

/**
 * Connected accounts: a member's external mailbox (IMAP to read, SMTP to send), its credentials
 * sealed with `ctx.secrets`; the sync state of each of its folders (UIDVALIDITY, UIDNEXT,
 * HIGHESTMODSEQ); and the changes made here that the server has yet to see. An account id is now
 * either a hosted mailbox's or a connected account's, so the parts' `account_id` loses its
 * foreign key to mailboxes (the services delete the parts with their account). Messages learn
 * where they live on the server (`remote_path`, `remote_uid`), whether their flags await the
 * server (`flags_dirty`), and the SPF and DMARC verdicts of their arrival.
 */
export const connectedAccounts: AppMigration = {
  name: '0002-connected-accounts',
  async up({ query }) {
    for (const table of PARTS) await query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_workspace_id_account_id_fkey`);
    await query(
      tenantTable('connected_accounts', {
        columns: {
          id: 'uuid NOT NULL',
          member_id: 'uuid NOT NULL',
          address: 'varchar(320) NOT NULL',
          display_name: "varchar(200) NOT NULL DEFAULT ''",
          signature_id: 'uuid',
          imap_host: 'varchar(253) NOT NULL',
          imap_port: 'integer NOT NULL',
          imap_security: 'varchar(10) NOT NULL',
          imap_username: 'varchar(320) NOT NULL',
          smtp_host: 'varchar(253) NOT NULL',
          smtp_port: 'integer NOT NULL',
          smtp_security: 'varchar(10) NOT NULL',
          smtp_username: 'varchar(320) NOT NULL',
          credentials: 'text NOT NULL',
          sync_status: "varchar(10) NOT NULL DEFAULT 'pending'",
          last_error: "varchar(500) NOT NULL DEFAULT ''",
          last_synced_at: 'timestamptz',
        },
        unique: [['member_id', 'lower(address)']],
      }),
    );
    await query(
      tenantTable('account_folders', {
        columns: {
          account_id: 'uuid NOT NULL',
          folder: 'varchar(40) NOT NULL',
          remote_path: 'varchar(500) NOT NULL',
          uid_validity: 'varchar(20) NOT NULL',
          uid_next: 'bigint NOT NULL',
          highest_modseq: 'varchar(20)',
        },
        primaryKey: ['account_id', 'folder'],
        references: { account_id: { table: 'connected_accounts' } },
      }),
    );
    await query(
      tenantTable('remote_operations', {
        columns: {
          id: 'uuid NOT NULL',
          account_id: 'uuid NOT NULL',
          message_id: 'uuid',
          remote_path: 'varchar(500) NOT NULL',
          uid_validity: 'varchar(20) NOT NULL',
          remote_uid: 'bigint NOT NULL',
          target_folder: 'varchar(40) NOT NULL',
        },
        references: { account_id: { table: 'connected_accounts' } },
      }),
    );
    await query(`ALTER TABLE messages
      ADD COLUMN remote_path varchar(500),
      ADD COLUMN remote_uid bigint,
      ADD COLUMN flags_dirty boolean NOT NULL DEFAULT false,
      ADD COLUMN spf varchar(20) NOT NULL DEFAULT 'none',
      ADD COLUMN dmarc varchar(20) NOT NULL DEFAULT 'none'`);
    await query('CREATE UNIQUE INDEX messages_remote_idx ON messages (workspace_id, account_id, remote_path, remote_uid) WHERE remote_uid IS NOT NULL');
  },
  async down({ query }) {
    await query('DROP INDEX messages_remote_idx');
    await query('ALTER TABLE messages DROP COLUMN remote_path, DROP COLUMN remote_uid, DROP COLUMN flags_dirty, DROP COLUMN spf, DROP COLUMN dmarc');
    await query('DROP TABLE remote_operations; DROP TABLE account_folders');
    for (const table of PARTS) await query(`DELETE FROM ${table} WHERE account_id IN (SELECT id FROM connected_accounts)`);
    await query('DROP TABLE connected_accounts');
    for (const table of PARTS) await query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_workspace_id_account_id_fkey FOREIGN KEY (workspace_id, account_id) REFERENCES mailboxes (workspace_id, id) ON DELETE CASCADE`);
  },
};
