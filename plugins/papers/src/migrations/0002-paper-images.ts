import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * `paper_images`: the images uploaded for a paper (the bytes in the app's storage under
 * `papers/{paper_id}/images/{id}`); the rows go with the paper, the purge deletes the bytes.
 */
export const createPaperImages: AppMigration = {
  name: '0002-paper-images',
  async up({ query }) {
    await query(
      tenantTable('paper_images', {
        references: { paper_id: { table: 'papers' } },
        referencesWorkspace: false,
        columns: { id: 'uuid NOT NULL', paper_id: 'uuid NOT NULL', content_type: 'varchar(20) NOT NULL', size_bytes: 'integer NOT NULL', created_by: 'uuid NOT NULL' },
      }),
    );
    await query('CREATE INDEX paper_images_paper_idx ON paper_images (workspace_id, paper_id)');
  },
  async down({ query }) {
    await query('DROP TABLE paper_images');
  },
};
