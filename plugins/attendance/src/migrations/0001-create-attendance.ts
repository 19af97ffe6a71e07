import { tenantTable, type AppMigration } from '@wpk/sdk';

/** The Attendance app's tables, in its own schema (`app_attendance`), each keyed by workspace. */
export const createAttendance: AppMigration = {
  name: '0001-create-attendance',
  async up({ query }) {
    await query(
      tenantTable('locations', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(100) NOT NULL',
          address: 'varchar(500)',
          latitude: 'double precision CHECK (latitude BETWEEN -90 AND 90)',
          longitude: 'double precision CHECK (longitude BETWEEN -180 AND 180)',
          radius_m: 'integer CHECK (radius_m BETWEEN 10 AND 100000)',
          timezone: 'varchar(64)',
          creator_id: 'uuid NOT NULL',
        },
        unique: [['lower(name)']],
      }),
    );
    await query('ALTER TABLE locations ADD CONSTRAINT locations_fence_whole CHECK ((latitude IS NULL) = (longitude IS NULL) AND (latitude IS NULL) = (radius_m IS NULL))');
    await query(
      tenantTable('attendances', {
        columns: {
          id: 'uuid NOT NULL',
          member_id: 'uuid NOT NULL',
          member_name: 'varchar(200)',
          location_id: 'uuid',
          location_name: 'varchar(100)',
          timezone: 'varchar(64) NOT NULL',
          work_date: 'date NOT NULL',
          check_in_at: 'timestamptz NOT NULL',
          check_out_at: 'timestamptz',
          check_in_position: 'jsonb',
          check_out_position: 'jsonb',
          source: "varchar(10) NOT NULL CHECK (source IN ('clock', 'manual'))",
          corrected: 'boolean NOT NULL DEFAULT false',
        },
        references: { location_id: { table: 'locations', onDelete: 'no action' } },
      }),
    );
    await query('ALTER TABLE attendances ADD CONSTRAINT attendances_order CHECK (check_out_at IS NULL OR check_out_at >= check_in_at)');
    // One open attendance per member: the rule's last line of defence (the service locks first).
    await query('CREATE UNIQUE INDEX attendances_one_open_idx ON attendances (workspace_id, member_id) WHERE check_out_at IS NULL');
    await query('CREATE INDEX attendances_member_date_idx ON attendances (workspace_id, member_id, work_date, check_in_at)');
    await query('CREATE INDEX attendances_date_idx ON attendances (workspace_id, work_date, check_in_at)');
    await query('CREATE INDEX attendances_location_idx ON attendances (workspace_id, location_id)');
    await query(
      tenantTable('breaks', {
        columns: { id: 'uuid NOT NULL', attendance_id: 'uuid NOT NULL', start_at: 'timestamptz NOT NULL', end_at: 'timestamptz' },
        references: { attendance_id: { table: 'attendances' } },
      }),
    );
    await query('ALTER TABLE breaks ADD CONSTRAINT breaks_order CHECK (end_at IS NULL OR end_at >= start_at)');
    await query('CREATE UNIQUE INDEX breaks_one_open_idx ON breaks (workspace_id, attendance_id) WHERE end_at IS NULL');
    await query('CREATE INDEX breaks_attendance_idx ON breaks (workspace_id, attendance_id, start_at)');
    await query(
      tenantTable('corrections', {
        columns: {
          id: 'uuid NOT NULL',
          attendance_id: 'uuid NOT NULL',
          member_id: 'uuid NOT NULL',
          kind: "varchar(10) NOT NULL CHECK (kind IN ('edited', 'created'))",
          before: 'jsonb',
          after: 'jsonb NOT NULL',
          changed_fields: "jsonb NOT NULL CHECK (jsonb_typeof(changed_fields) = 'array')",
          reason: 'varchar(500) NOT NULL',
          corrected_by: 'uuid NOT NULL',
        },
        references: { attendance_id: { table: 'attendances' } },
      }),
    );
    await query('CREATE INDEX corrections_attendance_idx ON corrections (workspace_id, attendance_id, created_at)');
    await query('CREATE INDEX corrections_member_idx ON corrections (workspace_id, member_id, created_at)');
  },
  async down({ query }) {
    await query('DROP TABLE corrections; DROP TABLE breaks; DROP TABLE attendances; DROP TABLE locations');
  },
};
