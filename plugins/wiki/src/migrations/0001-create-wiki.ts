import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * Spaces and the members' roles on them, the page tree (fractional positions), links between
 * pages by id, and every version of a page. `workspace_id` leads every key (Citus-distributable).
 */
export const createWiki: AppMigration = {
  name: '0001-create-wiki',
  async up({ query }) {
    await query(
      tenantTable('spaces', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          description: "varchar(2000) NOT NULL DEFAULT ''",
          default_role: "varchar(10) NOT NULL DEFAULT 'view' CHECK (default_role IN ('none', 'view', 'comment', 'edit'))",
          created_by: 'uuid NOT NULL',
          published: 'boolean NOT NULL DEFAULT false',
          published_page_id: 'uuid',
          published_at: 'timestamptz',
          revision: 'integer NOT NULL DEFAULT 1',
        },
      }),
    );
    await query(
      tenantTable('space_members', {
        columns: { id: 'uuid NOT NULL', space_id: 'uuid NOT NULL', member_id: 'uuid NOT NULL', role: "varchar(10) NOT NULL CHECK (role IN ('view', 'comment', 'edit', 'admin'))" },
        references: { space_id: { table: 'spaces', onDelete: 'cascade' } },
        unique: [['space_id', 'member_id']],
      }),
    );
    await query(
      tenantTable('pages', {
        columns: {
          id: 'uuid NOT NULL',
          space_id: 'uuid NOT NULL',
          parent_id: 'uuid',
          position: 'varchar(100) COLLATE "C" NOT NULL',
          title: 'varchar(300) NOT NULL',
          content: "jsonb NOT NULL DEFAULT '{\"type\":\"doc\",\"content\":[]}'",
          version: 'integer NOT NULL DEFAULT 1',
          restricted_to: 'jsonb',
          owner_id: 'uuid',
          review_days: 'integer CHECK (review_days BETWEEN 1 AND 3650)',
          verification: "varchar(12) NOT NULL DEFAULT 'unverified' CHECK (verification IN ('unverified', 'verified', 'due', 'expired'))",
          verified_at: 'timestamptz',
          due_at: 'timestamptz',
          watches: "jsonb NOT NULL DEFAULT '[]'",
          created_by: 'uuid NOT NULL',
          updated_by: 'uuid NOT NULL',
        },
        references: { space_id: { table: 'spaces', onDelete: 'cascade' }, parent_id: { table: 'pages', onDelete: 'cascade' } },
      }),
    );
    await query('CREATE INDEX pages_tree_idx ON pages (workspace_id, space_id, parent_id, position)');
    await query('CREATE INDEX pages_watches_idx ON pages USING gin (watches jsonb_path_ops)');
    await query(
      tenantTable('page_links', {
        columns: { id: 'uuid NOT NULL', from_page_id: 'uuid NOT NULL', to_page_id: 'uuid NOT NULL', space_id: 'uuid NOT NULL' },
        references: { from_page_id: { table: 'pages', onDelete: 'cascade' }, space_id: { table: 'spaces', onDelete: 'cascade' } },
        unique: [['from_page_id', 'to_page_id']],
      }),
    );
    await query('CREATE INDEX page_links_to_idx ON page_links (workspace_id, to_page_id)');
    await query(
      tenantTable('page_versions', {
        columns: { id: 'uuid NOT NULL', page_id: 'uuid NOT NULL', version: 'integer NOT NULL', title: 'varchar(300) NOT NULL', content: 'jsonb NOT NULL', created_by: 'uuid NOT NULL' },
        references: { page_id: { table: 'pages', onDelete: 'cascade' } },
        unique: [['page_id', 'version']],
      }),
    );
  },
  async down({ query }) {
    await query('DROP TABLE page_versions; DROP TABLE page_links; DROP TABLE pages; DROP TABLE space_members; DROP TABLE spaces');
  },
};
