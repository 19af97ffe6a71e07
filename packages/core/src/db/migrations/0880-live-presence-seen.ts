import type { Migration } from '../migrations.js';

/**
 * Presence rows carry when their process last vouched for them (`seen_at`, refreshed by each
 * process's heartbeat): the rows of a process that died without closing its sockets go stale and
 * are swept, so no member stays online forever (docs/live-updates.md, "Presence").
 */
export const migration: Migration = {
  name: '0880-live-presence-seen',
  async up({ sequelize }) {
    await sequelize.query('ALTER TABLE platform.live_presence ADD COLUMN seen_at timestamptz NOT NULL DEFAULT now();');
  },
  async down({ sequelize }) {
    await sequelize.query('ALTER TABLE platform.live_presence DROP COLUMN seen_at;');
  },
};
