import type { Migration } from '../migrations.js';

/**
 * Records only some members may find (`SearchDocument.readers`: a member's private file, a
 * direct chat): the member ids, or NULL for everyone who may search the record's type.
 */
export const migration: Migration = {
  name: '0700-search-readers',
  async up({ sequelize }) {
    await sequelize.query('ALTER TABLE platform.search_records ADD COLUMN readers text[]');
  },
  async down({ sequelize }) {
    await sequelize.query('ALTER TABLE platform.search_records DROP COLUMN readers');
  },
};
