import type { AppMigration } from '@wpk/sdk';

/** `links.anonymous`: a view-only link that opens the paper's public page without signing in. */
export const addAnonymousLinks: AppMigration = {
  name: '0005-anonymous-links',
  async up({ query }) {
    await query('ALTER TABLE links ADD COLUMN anonymous boolean NOT NULL DEFAULT false');
  },
  async down({ query }) {
    await query('ALTER TABLE links DROP COLUMN anonymous');
  },
};
