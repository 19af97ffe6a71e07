import type { Migration } from '../migrations.js';

/**
 * The planner keeps more statistics on the indexed words of search records (1,000 most common
 * elements sampled instead of 100). With the default, a partial id (`2345`, expanded to the few
 * hundred dictionary words that contain it, each held by one record) was estimated at 14 % of a
 * million records: PostgreSQL then intersected the words index with the whole workspace's key
 * index and compiled the query with JIT, 90 ms instead of 3 ms
 * (docs/decisions/0083-search-speed.md).
 */
export const migration: Migration = {
  name: '0890-search-word-statistics',
  async up({ sequelize }) {
    await sequelize.query('ALTER INDEX platform.search_records_words ALTER COLUMN 1 SET STATISTICS 1000;');
  },
  async down({ sequelize }) {
    await sequelize.query('ALTER INDEX platform.search_records_words ALTER COLUMN 1 SET STATISTICS -1;');
  },
};
