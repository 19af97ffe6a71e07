import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The app's copy of the Settings app's locations (fed by `core.settings.location.*`; the highest
 * revision wins, a deletion stays as a tombstone), and on each worker the name of their location
 * as the copy last knew it (workers set before this migration keep their MRN; the name follows the
 * location's next event).
 */
export const createLocationCopy: AppMigration = {
  name: '0005-location-copy',
  async up({ query }) {
    await query(
      tenantTable('locations', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          timezone: 'varchar(100) NOT NULL',
          deleted: 'boolean NOT NULL DEFAULT false',
          revision: 'integer NOT NULL',
        },
      }),
    );
    await query('CREATE INDEX locations_name_idx ON locations (workspace_id, name, id)');
    await query('ALTER TABLE workers ADD COLUMN location_name varchar(200)');
    await query('CREATE INDEX workers_location_idx ON workers (workspace_id, location_mrn)');
  },
  async down({ query }) {
    await query('DROP INDEX workers_location_idx; ALTER TABLE workers DROP COLUMN location_name');
    await query('DROP TABLE locations');
  },
};
