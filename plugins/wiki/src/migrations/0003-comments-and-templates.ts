import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * Comment threads on pages (`page_comments`, going with their page; docs/decisions/0309-wiki-comments.md)
 * and page templates (`pages.template`: a page marked a template in its space;
 * docs/decisions/0310-wiki-page-templates.md).
 */
export const commentsAndTemplates: AppMigration = {
  name: '0003-comments-and-templates',
  async up({ query }) {
    await query(
      tenantTable('page_comments', {
        references: { page_id: { table: 'pages', onDelete: 'cascade' } },
        columns: {
          id: 'uuid NOT NULL',
          page_id: 'uuid NOT NULL',
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
    await query('CREATE INDEX page_comments_page_idx ON page_comments (workspace_id, page_id, created_at)');
    await query('ALTER TABLE pages ADD COLUMN template boolean NOT NULL DEFAULT false');
  },
  async down({ query }) {
    await query('ALTER TABLE pages DROP COLUMN template; DROP TABLE page_comments');
  },
};
