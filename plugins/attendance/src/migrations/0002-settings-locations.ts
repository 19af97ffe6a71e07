import type { AppMigration } from '@wpk/sdk';

/**
 * Locations follow the Settings app (docs/decisions/0267-attendance-follows-settings-locations.md):
 * a location is either the app's own (`source = 'attendance'`, every row before this migration,
 * unchanged and working as before) or the copy of a Settings location (`source = 'settings'`, its
 * id the Settings location's, `revision` ordering the `core.settings.location.*` events, and
 * `deleted_at` set when Settings deleted it: a tombstone that keeps its attendances' history).
 * Names take Settings' length (200); a copy has no creator (the platform made it). Names stay
 * unique among the live own locations only: copies take the names Settings gives them (two
 * renames may arrive in any order), and a tombstone keeps a name a new location may take again.
 */
export const settingsLocations: AppMigration = {
  name: '0002-settings-locations',
  async up({ query }) {
    await query(`ALTER TABLE locations
      ADD COLUMN source varchar(10) NOT NULL DEFAULT 'attendance' CHECK (source IN ('attendance', 'settings')),
      ADD COLUMN revision integer CHECK (revision >= 1),
      ADD COLUMN deleted_at timestamptz,
      ALTER COLUMN name TYPE varchar(200),
      ALTER COLUMN timezone TYPE varchar(100),
      ALTER COLUMN creator_id DROP NOT NULL`);
    await query("ALTER TABLE locations ADD CONSTRAINT locations_source_revision CHECK ((source = 'settings') = (revision IS NOT NULL))");
    await query("ALTER TABLE locations ADD CONSTRAINT locations_own_creator CHECK (source = 'settings' OR creator_id IS NOT NULL)");
    await query('ALTER TABLE attendances ALTER COLUMN location_name TYPE varchar(200)');
    await query('DROP INDEX locations_unique_1');
    await query("CREATE UNIQUE INDEX locations_own_name_idx ON locations (workspace_id, lower(name)) WHERE source = 'attendance' AND deleted_at IS NULL");
  },
  async down({ query }) {
    await query("DELETE FROM locations WHERE source = 'settings' AND NOT EXISTS (SELECT 1 FROM attendances a WHERE a.workspace_id = locations.workspace_id AND a.location_id = locations.id)");
    await query('DROP INDEX locations_own_name_idx');
    await query('CREATE UNIQUE INDEX locations_unique_1 ON locations (workspace_id, lower(name))');
    await query('ALTER TABLE locations DROP CONSTRAINT locations_own_creator, DROP CONSTRAINT locations_source_revision, DROP COLUMN deleted_at, DROP COLUMN revision, DROP COLUMN source');
  },
};
