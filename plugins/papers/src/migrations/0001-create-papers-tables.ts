import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The Papers app's tables, in its own schema. A paper's text lives in its collaborative document:
 * `paper_documents` (the Yjs snapshot, and the stable ProseMirror JSON and plain text beside it)
 * and `paper_updates` (the updates not yet merged). A paper's rows go with the paper.
 */
export const createPapersTables: AppMigration = {
  name: '0001-create-papers-tables',
  async up({ query }) {
    const ofPaper = { references: { paper_id: { table: 'papers' } }, referencesWorkspace: false };
    await query(tenantTable('folders', { columns: { id: 'uuid NOT NULL', name: 'varchar(200) NOT NULL', parent_id: 'uuid', owner_id: 'uuid NOT NULL' }, references: { parent_id: { table: 'folders', onDelete: 'restrict' } } }));
    await query('CREATE INDEX folders_owner_idx ON folders (workspace_id, owner_id, name)');
    await query(
      tenantTable('papers', {
        columns: {
          id: 'uuid NOT NULL',
          title: 'varchar(300) NOT NULL',
          folder_id: 'uuid',
          owner_id: 'uuid NOT NULL',
          status: "varchar(10) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'trashed'))",
          trashed_at: 'timestamptz',
          edited_event_at: 'timestamptz',
          edited_at: 'timestamptz',
          edited_by: 'uuid',
        },
        references: { folder_id: { table: 'folders', onDelete: 'restrict' } },
      }),
    );
    await query('CREATE INDEX papers_owner_idx ON papers (workspace_id, owner_id, updated_at)');
    await query(tenantTable('paper_documents', { ...ofPaper, columns: { paper_id: 'uuid NOT NULL', state: 'bytea', content: 'jsonb NOT NULL', text: "text NOT NULL DEFAULT ''" }, primaryKey: ['paper_id'] }));
    await query(tenantTable('paper_updates', { ...ofPaper, columns: { id: 'uuid NOT NULL', paper_id: 'uuid NOT NULL', data: 'bytea NOT NULL', member_id: 'uuid' } }));
    await query('CREATE INDEX paper_updates_paper_idx ON paper_updates (workspace_id, paper_id, created_at)');
    await query(
      tenantTable('shares', {
        ...ofPaper,
        columns: {
          paper_id: 'uuid NOT NULL',
          principal_type: "varchar(10) NOT NULL CHECK (principal_type IN ('member', 'role'))",
          principal_id: 'varchar(100) NOT NULL',
          level: "varchar(10) NOT NULL CHECK (level IN ('view', 'comment', 'edit'))",
        },
        primaryKey: ['paper_id', 'principal_type', 'principal_id'],
      }),
    );
    await query('CREATE INDEX shares_principal_idx ON shares (workspace_id, principal_type, principal_id)');
    await query(
      tenantTable('links', {
        ...ofPaper,
        columns: { id: 'uuid NOT NULL', paper_id: 'uuid NOT NULL', token_hash: 'varchar(64) NOT NULL', level: "varchar(10) NOT NULL CHECK (level IN ('view', 'comment', 'edit'))", expires_at: 'timestamptz', created_by: 'uuid NOT NULL' },
        unique: [['token_hash']],
      }),
    );
    await query(
      tenantTable('comments', {
        ...ofPaper,
        columns: {
          id: 'uuid NOT NULL',
          paper_id: 'uuid NOT NULL',
          thread_id: 'uuid',
          body: 'text NOT NULL',
          anchor_from: 'text',
          anchor_to: 'text',
          quote: "varchar(1000) NOT NULL DEFAULT ''",
          author_id: 'uuid NOT NULL',
          edited_at: 'timestamptz',
          resolved_at: 'timestamptz',
          resolved_by: 'uuid',
        },
      }),
    );
    await query('CREATE INDEX comments_paper_idx ON comments (workspace_id, paper_id, created_at)');
    await query(
      tenantTable('versions', {
        ...ofPaper,
        columns: { id: 'uuid NOT NULL', paper_id: 'uuid NOT NULL', kind: "varchar(10) NOT NULL CHECK (kind IN ('auto', 'named', 'restore'))", name: 'varchar(200)', content: 'jsonb NOT NULL', text: 'text NOT NULL', created_by: 'uuid' },
      }),
    );
    await query('CREATE INDEX versions_paper_idx ON versions (workspace_id, paper_id, created_at)');
    await query(
      tenantTable('suggestions', {
        ...ofPaper,
        columns: {
          id: 'uuid NOT NULL',
          paper_id: 'uuid NOT NULL',
          data: 'bytea NOT NULL',
          note: "varchar(1000) NOT NULL DEFAULT ''",
          text: 'text NOT NULL',
          status: "varchar(10) NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'rejected'))",
          author_id: 'uuid NOT NULL',
          decided_by: 'uuid',
          decided_at: 'timestamptz',
        },
      }),
    );
    await query('CREATE INDEX suggestions_paper_idx ON suggestions (workspace_id, paper_id, created_at)');
  },
  async down({ query }) {
    for (const table of ['suggestions', 'versions', 'comments', 'links', 'shares', 'paper_updates', 'paper_documents', 'papers', 'folders']) await query(`DROP TABLE ${table}`);
  },
};
