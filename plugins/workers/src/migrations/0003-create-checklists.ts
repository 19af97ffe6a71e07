import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * On/offboarding checklists: templates (for every department, or one), and the checklists opened
 * from them for a worker, each item ticked by hand or by the event that confirms it. A checklist
 * copies its template's items, so changing or deleting a template leaves open checklists as they are.
 */
export const createChecklists: AppMigration = {
  name: '0003-create-checklists',
  async up({ query }) {
    await query(
      tenantTable('checklist_templates', {
        columns: {
          id: 'uuid NOT NULL',
          kind: "varchar(20) NOT NULL CHECK (kind IN ('onboarding', 'offboarding'))",
          name: 'varchar(200) NOT NULL',
          department_id: 'uuid',
          items: 'jsonb NOT NULL',
          revision: 'integer NOT NULL DEFAULT 1 CHECK (revision >= 1)',
        },
        references: { department_id: { table: 'departments', onDelete: 'no action' } },
      }),
    );
    await query(
      tenantTable('checklists', {
        columns: {
          id: 'uuid NOT NULL',
          worker_id: 'uuid NOT NULL',
          kind: "varchar(20) NOT NULL CHECK (kind IN ('onboarding', 'offboarding'))",
          name: 'varchar(200) NOT NULL',
          template_id: 'uuid',
          completed_at: 'timestamptz',
        },
        references: { worker_id: { table: 'workers' } },
      }),
    );
    await query(
      tenantTable('checklist_items', {
        columns: {
          id: 'uuid NOT NULL',
          checklist_id: 'uuid NOT NULL',
          worker_id: 'uuid NOT NULL',
          position: 'integer NOT NULL',
          label: 'varchar(200) NOT NULL',
          confirmed_by: 'varchar(40)',
          done_at: 'timestamptz',
          done_by: 'uuid',
          done_via: 'varchar(200)',
        },
        references: { checklist_id: { table: 'checklists' } },
        unique: [['checklist_id', 'position']],
      }),
    );
    await query('CREATE INDEX checklists_worker_idx ON checklists (workspace_id, worker_id, created_at)');
    await query('CREATE INDEX checklist_items_open_idx ON checklist_items (workspace_id, worker_id, confirmed_by) WHERE done_at IS NULL');
  },
  async down({ query }) {
    await query('DROP TABLE checklist_items; DROP TABLE checklists; DROP TABLE checklist_templates');
  },
};
