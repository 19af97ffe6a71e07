import type { AppMigration } from '@wpk/sdk';

/**
 * A location counts its changes (`revision`, 1 when created, +1 per change, the deletion one more):
 * the copies other apps keep (workers, attendance) apply a `core.settings.location.*` event only
 * when it is newer than what they hold, so a late or repeated delivery changes nothing.
 */
export const locationRevision: AppMigration = {
  name: '0002-location-revision',
  async up({ query }) {
    await query('ALTER TABLE locations ADD COLUMN revision integer NOT NULL DEFAULT 1 CHECK (revision >= 1)');
  },
  async down({ query }) {
    await query('ALTER TABLE locations DROP COLUMN revision');
  },
};
