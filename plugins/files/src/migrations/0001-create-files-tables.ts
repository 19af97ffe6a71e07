import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The Files app's tables, in its own schema (`app_files`), each keyed by workspace
 * (docs/scale-out.md). Files and folders share one table, `items`, as in Nextcloud's file cache
 * and Google Drive (a folder is an item of kind `folder`): names are unique per folder ignoring
 * case among live items (a trashed item frees its name), and a member's root is `parent_id` null.
 */
export const createFilesTables: AppMigration = {
  name: '0001-create-files-tables',
  async up({ query }) {
    await query(
      tenantTable('items', {
        columns: {
          id: 'uuid NOT NULL',
          kind: "varchar(6) NOT NULL CHECK (kind IN ('file', 'folder'))",
          owner_id: 'uuid NOT NULL',
          parent_id: 'uuid',
          name: 'varchar(255) NOT NULL',
          sort_name: 'varchar(255) COLLATE "C" NOT NULL',
          content_type: 'varchar(255)',
          size_bytes: 'bigint NOT NULL DEFAULT 0',
          version_id: 'uuid',
          version_number: 'integer NOT NULL DEFAULT 0',
          trashed_at: 'timestamptz',
          trash_root_id: 'uuid',
          trashed_by: 'uuid',
          created_by: 'uuid NOT NULL',
          updated_by: 'uuid NOT NULL',
        },
        references: { parent_id: { table: 'items', onDelete: 'no action' } },
      }),
    );
    await query(`
      CREATE UNIQUE INDEX items_live_name ON items (workspace_id, owner_id, (coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid)), lower(name)) WHERE trashed_at IS NULL;
      CREATE INDEX items_parent ON items (workspace_id, parent_id);
      CREATE INDEX items_owner ON items (workspace_id, owner_id, kind);
      CREATE INDEX items_trash_root ON items (workspace_id, trash_root_id) WHERE trash_root_id IS NOT NULL;
    `);
    await query(
      tenantTable('versions', {
        columns: {
          id: 'uuid NOT NULL',
          item_id: 'uuid NOT NULL',
          number: 'integer NOT NULL',
          storage_key: 'varchar(300) NOT NULL',
          size_bytes: 'bigint NOT NULL',
          content_type: 'varchar(255) NOT NULL',
          sha256: 'varchar(64) NOT NULL',
          category: 'varchar(20) NOT NULL',
          created_by: 'uuid NOT NULL',
        },
        references: { item_id: { table: 'items' } },
        unique: [['item_id', 'number']],
      }),
    );
    await query('CREATE INDEX versions_storage_key ON versions (workspace_id, storage_key)');
    await query(
      tenantTable('shares', {
        columns: {
          item_id: 'uuid NOT NULL',
          member_id: 'uuid NOT NULL',
          role: "varchar(4) NOT NULL CHECK (role IN ('read', 'edit'))",
          shared_by: 'uuid NOT NULL',
        },
        primaryKey: ['item_id', 'member_id'],
        references: { item_id: { table: 'items' } },
      }),
    );
    await query('CREATE INDEX shares_member ON shares (workspace_id, member_id)');
    await query(
      tenantTable('uploads', {
        columns: {
          id: 'uuid NOT NULL',
          owner_id: 'uuid NOT NULL',
          parent_id: 'uuid',
          item_id: 'uuid',
          name: 'varchar(255) NOT NULL',
          size_bytes: 'bigint NOT NULL',
          content_type: 'varchar(255)',
          storage_key: 'varchar(300) NOT NULL',
          created_by: 'uuid NOT NULL',
          expires_at: 'timestamptz NOT NULL',
        },
      }),
    );
    await query(
      tenantTable('usage', {
        columns: {
          member_id: 'uuid NOT NULL',
          category: 'varchar(20) NOT NULL',
          bytes: 'bigint NOT NULL DEFAULT 0',
          versions: 'integer NOT NULL DEFAULT 0',
        },
        primaryKey: ['member_id', 'category'],
      }),
    );
    await query(
      tenantTable('member_directory', {
        columns: { member_id: 'uuid NOT NULL', removed_at: 'timestamptz', removed_by: 'uuid' },
        primaryKey: ['member_id'],
      }),
    );
  },
  async down({ query }) {
    await query('DROP TABLE member_directory; DROP TABLE usage; DROP TABLE uploads; DROP TABLE shares; DROP TABLE versions; DROP TABLE items;');
  },
};
