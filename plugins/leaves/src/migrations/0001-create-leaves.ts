import { tenantTable, type AppMigration } from '@wpk/sdk';

const HUNDREDTHS = 'integer NOT NULL';

/**
 * The copies of workers, departments, calendars and holidays (fed by events), the leave types,
 * allocations, requests, the half-day slots a live request holds (one row per worker, day and
 * half under a unique key: two live requests can never cover the same half day, whoever commits
 * first) and the append-only ledger.
 */
export const createLeaves: AppMigration = {
  name: '0001-create-leaves',
  async up({ query }) {
    await query(
      tenantTable('workers', {
        columns: { id: 'uuid NOT NULL', name: 'varchar(200) NOT NULL', member_id: 'uuid', manager_id: 'uuid', department_id: 'uuid', status: 'varchar(20) NOT NULL', start_date: 'date', revision: 'integer NOT NULL' },
      }),
    );
    await query('CREATE INDEX workers_member_idx ON workers (workspace_id, member_id)');
    await query('CREATE INDEX workers_manager_idx ON workers (workspace_id, manager_id)');
    await query(tenantTable('departments', { columns: { id: 'uuid NOT NULL', name: 'varchar(200) NOT NULL', revision: 'integer NOT NULL' } }));
    await query(tenantTable('calendars', { columns: { id: 'uuid NOT NULL', name: 'varchar(200) NOT NULL', working_days: "jsonb NOT NULL DEFAULT '[]'", hours_per_day: 'double precision NOT NULL' } }));
    await query(
      tenantTable('holidays', {
        columns: { id: 'uuid NOT NULL', calendar_id: 'uuid NOT NULL', date: 'date NOT NULL', name: 'varchar(200) NOT NULL' },
        references: { calendar_id: { table: 'calendars' } },
      }),
    );
    await query('CREATE INDEX holidays_calendar_idx ON holidays (workspace_id, calendar_id, date)');
    await query(
      tenantTable('leave_types', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          unit: "varchar(20) NOT NULL CHECK (unit IN ('day', 'half_day', 'hour'))",
          paid: 'boolean NOT NULL DEFAULT true',
          needs_allocation: 'boolean NOT NULL DEFAULT true',
          allow_negative: 'boolean NOT NULL DEFAULT false',
          approval: "varchar(20) NOT NULL CHECK (approval IN ('manager', 'manager_then_hr'))",
          holidays_excluded: 'boolean NOT NULL DEFAULT true',
          carry_over_cap: 'integer CHECK (carry_over_cap >= 0)',
          default_allocation: 'integer NOT NULL DEFAULT 0 CHECK (default_allocation >= 0)',
          revision: 'integer NOT NULL DEFAULT 1',
        },
        unique: [['lower(name)']],
      }),
    );
    await query(
      tenantTable('allocations', {
        columns: {
          id: 'uuid NOT NULL',
          worker_id: 'uuid NOT NULL',
          type_id: 'uuid NOT NULL',
          amount: `${HUNDREDTHS} CHECK (amount > 0)`,
          period: "varchar(10) CHECK (period IN ('monthly', 'yearly'))",
          cap: 'integer CHECK (cap > 0)',
          starts_on: 'date NOT NULL',
          expires_on: 'date',
          note: "varchar(500) NOT NULL DEFAULT ''",
          granted_by: 'uuid',
        },
        references: { worker_id: { table: 'workers', onDelete: 'cascade' }, type_id: { table: 'leave_types', onDelete: 'restrict' } },
      }),
    );
    await query('CREATE INDEX allocations_worker_idx ON allocations (workspace_id, worker_id, type_id)');
    await query(
      tenantTable('requests', {
        columns: {
          id: 'uuid NOT NULL',
          worker_id: 'uuid NOT NULL',
          type_id: 'uuid NOT NULL',
          from_date: 'date NOT NULL',
          from_half: "varchar(2) NOT NULL CHECK (from_half IN ('am', 'pm'))",
          to_date: 'date NOT NULL',
          to_half: "varchar(2) NOT NULL CHECK (to_half IN ('am', 'pm'))",
          hours: 'double precision',
          duration: `${HUNDREDTHS} CHECK (duration >= 0)`,
          status: "varchar(20) NOT NULL CHECK (status IN ('draft', 'submitted', 'approved', 'refused', 'withdrawn', 'cancelled'))",
          note: "varchar(1000) NOT NULL DEFAULT ''",
          reason: 'varchar(1000)',
          approver_id: 'uuid',
          manager_approved_by: 'uuid',
          decided_by: 'uuid',
          created_by: 'uuid',
        },
        references: { worker_id: { table: 'workers', onDelete: 'cascade' }, type_id: { table: 'leave_types', onDelete: 'restrict' } },
      }),
    );
    await query("ALTER TABLE requests ADD CHECK (from_date < to_date OR (from_date = to_date AND NOT (from_half = 'pm' AND to_half = 'am')))");
    await query('CREATE INDEX requests_worker_idx ON requests (workspace_id, worker_id, from_date)');
    await query('CREATE INDEX requests_dates_idx ON requests (workspace_id, from_date, to_date)');
    await query(
      tenantTable('request_slots', {
        columns: { id: 'uuid NOT NULL', worker_id: 'uuid NOT NULL', day: 'date NOT NULL', half: "varchar(2) NOT NULL CHECK (half IN ('am', 'pm'))", request_id: 'uuid NOT NULL' },
        references: { request_id: { table: 'requests', onDelete: 'cascade' } },
        unique: [['worker_id', 'day', 'half']],
        timestamps: false,
      }),
    );
    await query('CREATE INDEX request_slots_request_idx ON request_slots (workspace_id, request_id)');
    await query(
      tenantTable('ledger_entries', {
        columns: {
          id: 'uuid NOT NULL',
          worker_id: 'uuid NOT NULL',
          type_id: 'uuid NOT NULL',
          kind: "varchar(20) NOT NULL CHECK (kind IN ('allocation', 'accrual', 'request', 'cancellation', 'expiry', 'carry_over'))",
          amount: HUNDREDTHS,
          occurred_on: 'date NOT NULL',
          allocation_id: 'uuid',
          request_id: 'uuid',
          dedupe_key: 'varchar(200) NOT NULL',
        },
        references: { worker_id: { table: 'workers', onDelete: 'cascade' }, type_id: { table: 'leave_types', onDelete: 'restrict' } },
        unique: [['dedupe_key']],
      }),
    );
    await query('CREATE INDEX ledger_worker_idx ON ledger_entries (workspace_id, worker_id, type_id, occurred_on)');
    await query(
      tenantTable('feeds', {
        columns: { id: 'uuid NOT NULL', token_hash: 'char(64) NOT NULL', worker_id: 'uuid', department_id: 'uuid', created_by: 'uuid NOT NULL' },
        references: { worker_id: { table: 'workers', onDelete: 'cascade' }, department_id: { table: 'departments', onDelete: 'cascade' } },
        unique: [['token_hash']],
      }),
    );
    await query('ALTER TABLE feeds ADD CHECK ((worker_id IS NULL) <> (department_id IS NULL))');
  },
  async down({ query }) {
    await query('DROP TABLE feeds; DROP TABLE ledger_entries; DROP TABLE request_slots; DROP TABLE requests; DROP TABLE allocations; DROP TABLE leave_types; DROP TABLE holidays; DROP TABLE calendars; DROP TABLE departments; DROP TABLE workers');
  },
};
