import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * Department channels' audiences: the app's copies of the workers directory (which member works in
 * which department) and of the department tree, fed by `core.workers.*`, and on each post the
 * department whose members read it (null outside department channels).
 */
export const createAudiences: AppMigration = {
  name: '0004-audiences',
  async up({ query }) {
    await query(
      tenantTable('workers', {
        columns: {
          id: 'uuid NOT NULL',
          member_id: 'uuid',
          department_id: 'uuid',
          status: 'varchar(20) NOT NULL',
          revision: 'integer NOT NULL',
        },
      }),
    );
    await query('CREATE INDEX workers_member_idx ON workers (workspace_id, member_id)');
    await query('CREATE INDEX workers_department_idx ON workers (workspace_id, department_id)');
    await query(
      tenantTable('departments', {
        columns: {
          id: 'uuid NOT NULL',
          parent_id: 'uuid',
          name: 'varchar(200) NOT NULL',
          deleted: 'boolean NOT NULL DEFAULT false',
          revision: 'integer NOT NULL',
        },
      }),
    );
    await query('ALTER TABLE posts ADD COLUMN department_id uuid');
    await query(`UPDATE posts SET department_id = substring(channels.department_mrn from 'mrn:workers:department:(.*)$')::uuid
      FROM channels WHERE channels.workspace_id = posts.workspace_id AND channels.id = posts.channel_id AND channels.kind = 'department'`);
  },
  async down({ query }) {
    await query('ALTER TABLE posts DROP COLUMN department_id');
    for (const table of ['departments', 'workers']) await query(`DROP TABLE ${table}`);
  },
};
