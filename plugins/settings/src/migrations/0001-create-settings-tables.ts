import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The Settings app's tables in its own schema (`app_settings`), keyed by workspace: the
 * organisation profile (one row, its id the workspace's), locations, working calendars with their
 * holidays, and each member's preferences. Names are unique per workspace ignoring case; a
 * holiday is unique per calendar, day and name, which makes a re-import insert nothing.
 */
export const createSettingsTables: AppMigration = {
  name: '0001-create-settings-tables',
  async up({ query }) {
    await query(
      tenantTable('organizations', {
        columns: {
          id: 'uuid NOT NULL',
          legal_name: 'varchar(200) NOT NULL',
          logo_key: 'varchar(500)',
          base_currency: "char(3) NOT NULL CHECK (base_currency ~ '^[A-Z]{3}$')",
          timezone: 'varchar(100) NOT NULL',
          locale: 'varchar(35) NOT NULL',
          week_start: 'varchar(10) NOT NULL',
          fiscal_year_start_month: 'integer NOT NULL CHECK (fiscal_year_start_month BETWEEN 1 AND 12)',
          revision: 'integer NOT NULL DEFAULT 1 CHECK (revision >= 1)',
          updated_by: 'uuid NOT NULL',
        },
      }),
    );
    await query(
      tenantTable('locations', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          address: "jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(address) = 'object')",
          timezone: 'varchar(100) NOT NULL',
        },
        unique: [['lower(name)']],
      }),
    );
    await query('CREATE INDEX locations_name_idx ON locations (workspace_id, name, id)');
    await query(
      tenantTable('calendars', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          working_days: "jsonb NOT NULL CHECK (jsonb_typeof(working_days) = 'array')",
          hours_per_day: 'double precision NOT NULL CHECK (hours_per_day > 0 AND hours_per_day <= 24)',
          region: 'varchar(20)',
        },
        unique: [['lower(name)']],
      }),
    );
    await query('CREATE INDEX calendars_name_idx ON calendars (workspace_id, name, id)');
    await query(
      tenantTable('holidays', {
        columns: {
          id: 'uuid NOT NULL',
          calendar_id: 'uuid NOT NULL',
          date: 'date NOT NULL',
          name: 'varchar(200) NOT NULL',
          source: 'varchar(10) NOT NULL',
        },
        references: { calendar_id: { table: 'calendars' } },
        unique: [['calendar_id', 'date', 'lower(name)']],
      }),
    );
    await query(
      tenantTable('preferences', {
        columns: {
          member_id: 'uuid NOT NULL',
          language: 'varchar(35) NOT NULL',
          timezone: 'varchar(100)',
          date_format: 'varchar(10) NOT NULL',
          notification_channels: "jsonb NOT NULL CHECK (jsonb_typeof(notification_channels) = 'array')",
        },
        primaryKey: ['member_id'],
      }),
    );
  },
  async down({ query }) {
    for (const table of ['preferences', 'holidays', 'calendars', 'locations', 'organizations']) await query(`DROP TABLE ${table}`);
  },
};
