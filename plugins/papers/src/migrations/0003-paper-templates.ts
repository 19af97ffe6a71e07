import type { AppMigration } from '@wpk/sdk';

/** `papers.is_template`: a paper kept as a template (listed by GET /papers/templates, not by GET /papers). */
export const addPaperTemplates: AppMigration = {
  name: '0003-paper-templates',
  async up({ query }) {
    await query('ALTER TABLE papers ADD COLUMN is_template boolean NOT NULL DEFAULT false');
    await query('CREATE INDEX papers_template_idx ON papers (workspace_id, is_template, updated_at)');
  },
  async down({ query }) {
    await query('DROP INDEX papers_template_idx');
    await query('ALTER TABLE papers DROP COLUMN is_template');
  },
};
