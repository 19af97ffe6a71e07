import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * Bases, their tables and fields, one records table for every user table (cells in JSONB keyed by
 * the stable field id, with a version per cell: no DDL per user table), comments, history, views
 * and the members' roles on a base. `workspace_id` leads every key (Citus-distributable).
 */
export const createTables: AppMigration = {
  name: '0001-create-tables',
  async up({ query }) {
    await query(
      tenantTable('bases', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          default_role: "varchar(10) NOT NULL DEFAULT 'editor' CHECK (default_role IN ('none', 'viewer', 'editor', 'creator'))",
          created_by: 'uuid NOT NULL',
          revision: 'integer NOT NULL DEFAULT 1',
        },
      }),
    );
    await query(
      tenantTable('base_roles', {
        columns: { id: 'uuid NOT NULL', base_id: 'uuid NOT NULL', member_id: 'uuid NOT NULL', role: "varchar(10) NOT NULL CHECK (role IN ('viewer', 'editor', 'creator'))" },
        references: { base_id: { table: 'bases', onDelete: 'cascade' } },
        unique: [['base_id', 'member_id']],
      }),
    );
    await query(
      tenantTable('tables', {
        columns: {
          id: 'uuid NOT NULL',
          base_id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          primary_field_id: 'uuid',
          next_number: 'integer NOT NULL DEFAULT 1',
          revision: 'integer NOT NULL DEFAULT 1',
        },
        references: { base_id: { table: 'bases', onDelete: 'cascade' } },
        unique: [['base_id', 'lower(name)']],
      }),
    );
    await query(
      tenantTable('fields', {
        columns: {
          id: 'uuid NOT NULL',
          table_id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          type: 'varchar(20) NOT NULL',
          options: "jsonb NOT NULL DEFAULT '{}'",
          position: 'integer NOT NULL',
          revision: 'integer NOT NULL DEFAULT 1',
        },
        references: { table_id: { table: 'tables', onDelete: 'cascade' } },
        unique: [['table_id', 'lower(name)']],
      }),
    );
    await query(
      tenantTable('records', {
        columns: {
          id: 'uuid NOT NULL',
          table_id: 'uuid NOT NULL',
          number: 'integer NOT NULL',
          cells: "jsonb NOT NULL DEFAULT '{}'",
          versions: "jsonb NOT NULL DEFAULT '{}'",
          title: "varchar(500) NOT NULL DEFAULT ''",
          created_by: 'uuid',
          updated_by: 'uuid',
          revision: 'integer NOT NULL DEFAULT 1',
        },
        references: { table_id: { table: 'tables', onDelete: 'cascade' } },
        unique: [['table_id', 'number']],
      }),
    );
    await query('CREATE INDEX records_cells_idx ON records USING gin (cells jsonb_path_ops)');
    await query(
      tenantTable('record_comments', {
        columns: { id: 'uuid NOT NULL', record_id: 'uuid NOT NULL', body: 'varchar(5000) NOT NULL', author_id: 'uuid NOT NULL' },
        references: { record_id: { table: 'records', onDelete: 'cascade' } },
      }),
    );
    await query('CREATE INDEX record_comments_record_idx ON record_comments (workspace_id, record_id, created_at)');
    await query(
      tenantTable('record_history', {
        columns: { id: 'uuid NOT NULL', record_id: 'uuid NOT NULL', kind: "varchar(10) NOT NULL CHECK (kind IN ('created', 'updated'))", changes: "jsonb NOT NULL DEFAULT '{}'", actor_id: 'uuid' },
        references: { record_id: { table: 'records', onDelete: 'cascade' } },
      }),
    );
    await query('CREATE INDEX record_history_record_idx ON record_history (workspace_id, record_id, created_at)');
    await query(
      tenantTable('views', {
        columns: {
          id: 'uuid NOT NULL',
          table_id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          type: "varchar(10) NOT NULL CHECK (type IN ('grid', 'kanban', 'calendar', 'gallery', 'form'))",
          config: "jsonb NOT NULL DEFAULT '{}'",
          owner_id: 'uuid',
          created_by: 'uuid NOT NULL',
          form_token_hash: 'char(64)',
          revision: 'integer NOT NULL DEFAULT 1',
        },
        references: { table_id: { table: 'tables', onDelete: 'cascade' } },
        unique: [['form_token_hash']],
      }),
    );
    await query('CREATE INDEX views_table_idx ON views (workspace_id, table_id)');
  },
  async down({ query }) {
    await query('DROP TABLE views; DROP TABLE record_history; DROP TABLE record_comments; DROP TABLE records; DROP TABLE fields; DROP TABLE tables; DROP TABLE base_roles; DROP TABLE bases');
  },
};
