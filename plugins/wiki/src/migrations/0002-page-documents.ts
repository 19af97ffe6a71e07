import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * Pages on the shared editing stack (docs/decisions/0300-wiki-on-the-editing-stack.md):
 * `page_documents` (a page's Yjs state, and the stable ProseMirror JSON and plain text beside it)
 * and `page_updates` (the Yjs updates not yet merged), both going with their page; and
 * `pages.edited_event_at`, when a live edit last emitted `core.wiki.page.updated` (live edits
 * emit it at most once in `updated_event_seconds`). Existing pages get their document on first
 * load, from `pages.content` (no Yjs in a migration).
 */
export const pageDocuments: AppMigration = {
  name: '0002-page-documents',
  async up({ query }) {
    const ofPage = { references: { page_id: { table: 'pages', onDelete: 'cascade' } }, referencesWorkspace: false } as const;
    await query(tenantTable('page_documents', { ...ofPage, columns: { page_id: 'uuid NOT NULL', state: 'bytea', content: 'jsonb NOT NULL', text: "text NOT NULL DEFAULT ''" }, primaryKey: ['page_id'] }));
    await query(tenantTable('page_updates', { ...ofPage, columns: { id: 'uuid NOT NULL', page_id: 'uuid NOT NULL', data: 'bytea NOT NULL', member_id: 'uuid' } }));
    await query('CREATE INDEX page_updates_page_idx ON page_updates (workspace_id, page_id, created_at)');
    await query('ALTER TABLE pages ADD COLUMN edited_event_at timestamptz');
  },
  async down({ query }) {
    await query('ALTER TABLE pages DROP COLUMN edited_event_at; DROP TABLE page_updates; DROP TABLE page_documents');
  },
};
