import type { Migration } from '../migrations.js';

/**
 * Throttles count atomically: one row per throttled key holding the instants of its counted
 * attempts, so check-and-count is one `INSERT … ON CONFLICT DO UPDATE` under the row's lock
 * (`platform.throttle_events`, one row per attempt, let concurrent attempts all pass the check).
 * Attempts of the last day move over, so no bound resets on upgrade.
 */
export const migration: Migration = {
  name: '0101-throttle-counters',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.throttle_counters (
        key varchar(300) PRIMARY KEY,
        hits timestamptz[] NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX throttle_counters_updated_idx ON platform.throttle_counters (updated_at);
      INSERT INTO platform.throttle_counters (key, hits, updated_at)
        SELECT key, array_agg(created_at ORDER BY created_at), max(created_at)
          FROM platform.throttle_events
         WHERE created_at > clock_timestamp() - interval '1 day'
         GROUP BY key;
      DROP TABLE platform.throttle_events;
    `);
  },
  async down({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.throttle_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        key varchar(300) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX throttle_events_key_idx ON platform.throttle_events (key, created_at);
      INSERT INTO platform.throttle_events (key, created_at)
        SELECT c.key, h FROM platform.throttle_counters c, unnest(c.hits) AS h ORDER BY h;
      DROP TABLE platform.throttle_counters;
    `);
  },
};
