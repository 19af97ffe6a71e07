import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * Departments (a tree), workers (a manager tree, in departments) and their effective-dated
 * history. A department's head is a worker and a worker's department a department: the head's
 * reference is added once both tables exist. References are NO ACTION: the services clear or
 * refuse what would dangle (a department with workers cannot go).
 */
export const createWorkers: AppMigration = {
  name: '0001-create-workers',
  async up({ query }) {
    await query(
      tenantTable('departments', {
        columns: { id: 'uuid NOT NULL', name: 'varchar(200) NOT NULL', parent_id: 'uuid', head_id: 'uuid', revision: 'integer NOT NULL DEFAULT 1 CHECK (revision >= 1)' },
        references: { parent_id: { table: 'departments', onDelete: 'no action' } },
      }),
    );
    await query(
      tenantTable('workers', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          work_email: 'varchar(320) NOT NULL',
          title: "varchar(200) NOT NULL DEFAULT ''",
          department_id: 'uuid',
          manager_id: 'uuid',
          location_mrn: 'varchar(200)',
          start_date: 'date',
          employment_type: "varchar(20) NOT NULL CHECK (employment_type IN ('full_time', 'part_time', 'contractor', 'intern'))",
          member_id: 'uuid',
          status: "varchar(20) NOT NULL CHECK (status IN ('onboarding', 'active', 'offboarding', 'terminated'))",
          birth_date: 'date',
          personal_email: 'varchar(320)',
          personal_phone: 'varchar(50)',
          salary_band: 'varchar(50)',
          application_id: 'uuid',
          revision: 'integer NOT NULL DEFAULT 1 CHECK (revision >= 1)',
        },
        references: { department_id: { table: 'departments', onDelete: 'no action' }, manager_id: { table: 'workers', onDelete: 'no action' } },
        unique: [['lower(work_email)'], ['application_id']],
      }),
    );
    await query('ALTER TABLE departments ADD FOREIGN KEY (workspace_id, head_id) REFERENCES workers (workspace_id, id) ON DELETE NO ACTION');
    await query('CREATE INDEX workers_name_idx ON workers (workspace_id, name, id)');
    await query('CREATE INDEX workers_manager_idx ON workers (workspace_id, manager_id)');
    await query('CREATE INDEX workers_department_idx ON workers (workspace_id, department_id)');
    await query('CREATE INDEX workers_member_idx ON workers (workspace_id, member_id)');
    await query('CREATE INDEX departments_parent_idx ON departments (workspace_id, parent_id)');
    await query(
      tenantTable('worker_history', {
        columns: {
          id: 'uuid NOT NULL',
          worker_id: 'uuid NOT NULL',
          effective_on: 'date NOT NULL',
          title: "varchar(200) NOT NULL DEFAULT ''",
          department_id: 'uuid',
          manager_id: 'uuid',
          recorded_by: 'uuid',
        },
        references: { worker_id: { table: 'workers' } },
        unique: [['worker_id', 'effective_on']],
      }),
    );
  },
  async down({ query }) {
    await query('DROP TABLE worker_history; ALTER TABLE departments DROP COLUMN head_id; DROP TABLE workers; DROP TABLE departments');
  },
};
