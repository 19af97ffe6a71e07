import { tenantTable, type AppMigration } from '@wpk/sdk';

/** The envelope and body a message and a draft both carry, in the same columns. */
const envelope = {
  to_addresses: "jsonb NOT NULL DEFAULT '[]'",
  cc_addresses: "jsonb NOT NULL DEFAULT '[]'",
  bcc_addresses: "jsonb NOT NULL DEFAULT '[]'",
  subject: "varchar(998) NOT NULL DEFAULT ''",
  text_body: "text NOT NULL DEFAULT ''",
  html_body: "text NOT NULL DEFAULT ''",
};

/**
 * The Mail app's tables (schema `app_mail`), each keyed by workspace. A hosted mailbox is also
 * its member's account: messages, drafts, signatures, filters and blocked senders hang off
 * `account_id` = the mailbox's id, and go with it.
 */
export const createMailTables: AppMigration = {
  name: '0001-create-mail-tables',
  async up({ query }) {
    await query(
      tenantTable('domains', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(253) NOT NULL',
          dkim_selector: 'varchar(63) NOT NULL',
          dkim_public_key: 'text NOT NULL',
          dkim_private_key: 'text NOT NULL',
          catch_all_mailbox_id: 'uuid',
          verified_at: 'timestamptz',
          checked_at: 'timestamptz',
          checks: "jsonb NOT NULL DEFAULT '{}'",
          created_by: 'uuid NOT NULL',
        },
        unique: [['lower(name)']],
      }),
    );
    await query(
      tenantTable('mailboxes', {
        columns: {
          id: 'uuid NOT NULL',
          domain_id: 'uuid NOT NULL',
          local_part: 'varchar(64) NOT NULL',
          address: 'varchar(320) NOT NULL',
          display_name: "varchar(200) NOT NULL DEFAULT ''",
          member_id: 'uuid',
          signature_id: 'uuid',
          created_by: 'uuid NOT NULL',
        },
        unique: [['lower(address)']],
        references: { domain_id: { table: 'domains' } },
      }),
    );
    await query(
      tenantTable('groups', {
        columns: {
          id: 'uuid NOT NULL',
          domain_id: 'uuid NOT NULL',
          local_part: 'varchar(64) NOT NULL',
          address: 'varchar(320) NOT NULL',
          name: 'varchar(200) NOT NULL',
          description: "varchar(2000) NOT NULL DEFAULT ''",
          who_can_post: "varchar(20) NOT NULL DEFAULT 'anyone'",
          created_by: 'uuid NOT NULL',
        },
        unique: [['lower(address)']],
        references: { domain_id: { table: 'domains' } },
      }),
    );
    await query(
      tenantTable('group_members', {
        columns: { group_id: 'uuid NOT NULL', member_id: 'uuid NOT NULL', tier: "varchar(20) NOT NULL DEFAULT 'member'", added_by: 'uuid NOT NULL' },
        primaryKey: ['group_id', 'member_id'],
        references: { group_id: { table: 'groups' } },
      }),
    );
    await query(
      tenantTable('messages', {
        columns: {
          id: 'uuid NOT NULL',
          account_id: 'uuid',
          group_id: 'uuid',
          folder: "varchar(40) NOT NULL DEFAULT 'inbox'",
          message_id_header: "varchar(998) NOT NULL DEFAULT ''",
          in_reply_to: "varchar(998) NOT NULL DEFAULT ''",
          from_address: "varchar(320) NOT NULL DEFAULT ''",
          from_name: "varchar(200) NOT NULL DEFAULT ''",
          ...envelope,
          delivery_status: 'varchar(10)',
          attempts: 'integer NOT NULL DEFAULT 0',
          next_attempt_at: 'timestamptz',
          last_error: "varchar(500) NOT NULL DEFAULT ''",
          sent_by: 'uuid',
          size_bytes: 'integer NOT NULL DEFAULT 0',
          dkim: "varchar(20) NOT NULL DEFAULT 'none'",
          seen: 'boolean NOT NULL DEFAULT false',
          flagged: 'boolean NOT NULL DEFAULT false',
          sent_at: 'timestamptz',
          received_at: 'timestamptz NOT NULL DEFAULT now()',
        },
        references: { account_id: { table: 'mailboxes' }, group_id: { table: 'groups' } },
      }),
    );
    await query('CREATE INDEX messages_account_idx ON messages (workspace_id, account_id, folder, received_at)');
    await query('CREATE INDEX messages_queue_idx ON messages (workspace_id, next_attempt_at) WHERE delivery_status = \'queued\'');
    await query('CREATE INDEX messages_group_idx ON messages (workspace_id, group_id, received_at)');
    await query(
      tenantTable('drafts', {
        columns: {
          id: 'uuid NOT NULL',
          account_id: 'uuid NOT NULL',
          ...envelope,
          in_reply_to: "varchar(998) NOT NULL DEFAULT ''",
          created_by: 'uuid NOT NULL',
        },
        references: { account_id: { table: 'mailboxes' } },
      }),
    );
    await query(
      tenantTable('signatures', {
        columns: { id: 'uuid NOT NULL', account_id: 'uuid NOT NULL', name: 'varchar(100) NOT NULL', text_body: "text NOT NULL DEFAULT ''", html_body: "text NOT NULL DEFAULT ''" },
        unique: [['account_id', 'lower(name)']],
        references: { account_id: { table: 'mailboxes' } },
      }),
    );
    await query(
      tenantTable('filters', {
        columns: { id: 'uuid NOT NULL', account_id: 'uuid NOT NULL', name: 'varchar(100) NOT NULL', match: "varchar(3) NOT NULL DEFAULT 'all'", conditions: 'jsonb NOT NULL', actions: 'jsonb NOT NULL', position: 'integer NOT NULL' },
        references: { account_id: { table: 'mailboxes' } },
      }),
    );
    await query(
      tenantTable('blocked_senders', {
        columns: { id: 'uuid NOT NULL', account_id: 'uuid NOT NULL', address: 'varchar(320) NOT NULL' },
        unique: [['account_id', 'lower(address)']],
        references: { account_id: { table: 'mailboxes' } },
      }),
    );
    await query(
      tenantTable('outbox_keys', {
        columns: {
          id: 'uuid NOT NULL',
          mailbox_id: 'uuid NOT NULL',
          name: 'varchar(100) NOT NULL',
          prefix: 'varchar(16) NOT NULL',
          secret_hash: 'varchar(64) NOT NULL',
          revoked_at: 'timestamptz',
          last_used_at: 'timestamptz',
          created_by: 'uuid NOT NULL',
        },
        references: { mailbox_id: { table: 'mailboxes' } },
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
    await query('DROP TABLE member_directory; DROP TABLE outbox_keys; DROP TABLE blocked_senders; DROP TABLE filters; DROP TABLE signatures; DROP TABLE drafts; DROP TABLE messages; DROP TABLE group_members; DROP TABLE groups; DROP TABLE mailboxes; DROP TABLE domains');
  },
};
