import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * Event cards by consent: an admin's binding of a catalog action to a channel, with the payload
 * fields it may show and the template that shows them; and the cards made, one per binding and
 * delivered event (what makes a redelivery change nothing).
 */
export const createBindings: AppMigration = {
  name: '0003-bindings',
  async up({ query }) {
    await query(
      tenantTable('bindings', {
        columns: {
          id: 'uuid NOT NULL',
          action: 'varchar(120) NOT NULL',
          channel_id: 'uuid NOT NULL',
          fields: "jsonb NOT NULL CHECK (jsonb_typeof(fields) = 'array')",
          title: 'varchar(200)',
          template: 'varchar(2000) NOT NULL',
          created_by: 'uuid NOT NULL',
        },
        references: { channel_id: { table: 'channels', onDelete: 'cascade' } },
      }),
    );
    await query('CREATE INDEX bindings_action_idx ON bindings (workspace_id, action)');
    await query(
      tenantTable('cards', {
        columns: {
          id: 'uuid NOT NULL',
          binding_id: 'uuid NOT NULL',
          event_id: 'varchar(200) NOT NULL',
          post_id: 'uuid NOT NULL',
        },
        references: { binding_id: { table: 'bindings', onDelete: 'cascade' }, post_id: { table: 'posts', onDelete: 'cascade' } },
        unique: [['binding_id', 'event_id']],
      }),
    );
  },
  async down({ query }) {
    for (const table of ['cards', 'bindings']) await query(`DROP TABLE ${table}`);
  },
};
