import type { AppMigration } from '@wpk/sdk';
import { tenantTable } from '@wpk/sdk';

/**
 * Department shares: a share's `principal_type` may be `department`, and the app keeps its own
 * copies of the Workers app's workers (which member works in which department) and department tree,
 * fed by `core.workers.*` (docs/decisions/0303-papers-department-shares.md).
 */
export const addDepartmentShares: AppMigration = {
  name: '0004-department-shares',
  async up({ query }) {
    await query('ALTER TABLE shares DROP CONSTRAINT shares_principal_type_check');
    await query("ALTER TABLE shares ADD CONSTRAINT shares_principal_type_check CHECK (principal_type IN ('member', 'role', 'department'))");
    const copy = (name: string, columns: Record<string, string>) => query(tenantTable(name, { columns: { id: 'uuid NOT NULL', ...columns, revision: 'integer NOT NULL' } }));
    await copy('worker_copies', { member_id: 'uuid', department_id: 'uuid', status: 'varchar(20) NOT NULL' });
    await query('CREATE INDEX worker_copies_member_idx ON worker_copies (workspace_id, member_id)');
    await query('CREATE INDEX worker_copies_department_idx ON worker_copies (workspace_id, department_id)');
    await copy('department_copies', { parent_id: 'uuid', name: 'varchar(200) NOT NULL', deleted: 'boolean NOT NULL DEFAULT false' });
  },
  async down({ query }) {
    await query('DROP TABLE department_copies');
    await query('DROP TABLE worker_copies');
    await query("DELETE FROM shares WHERE principal_type = 'department'");
    await query('ALTER TABLE shares DROP CONSTRAINT shares_principal_type_check');
    await query("ALTER TABLE shares ADD CONSTRAINT shares_principal_type_check CHECK (principal_type IN ('member', 'role'))");
  },
};
