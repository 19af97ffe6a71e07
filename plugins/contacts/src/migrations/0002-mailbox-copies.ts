import { tenantTable, type AppMigration } from '@wpk/sdk';

/** The app's copy of the workspace's mailboxes (whose member reads which address), fed by `core.mail.mailbox.*`. */
export const createMailboxCopies: AppMigration = {
  name: '0002-mailbox-copies',
  async up({ query }) {
    await query(
      tenantTable('mailbox_copies', {
        columns: { mailbox_id: 'uuid NOT NULL', address: 'varchar(320) NOT NULL', member_id: 'uuid' },
        primaryKey: ['mailbox_id'],
      }),
    );
    await query('CREATE INDEX mailbox_copies_address_idx ON mailbox_copies (workspace_id, address)');
  },
  async down({ query }) {
    await query('DROP TABLE mailbox_copies');
  },
};
