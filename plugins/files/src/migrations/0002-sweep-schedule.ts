import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * When the workspace's next sweep (trash retention, abandoned uploads) is due: one row per
 * workspace (`name` = 'sweep'), so repeated scheduling stages one delayed event, not many.
 */
export const createSweepSchedule: AppMigration = {
  name: '0002-sweep-schedule',
  async up({ query }) {
    await query(tenantTable('schedules', { columns: { name: 'varchar(20) NOT NULL', due_at: 'timestamptz NOT NULL' }, primaryKey: ['name'] }));
    await query('CREATE INDEX items_trash_idx ON items (workspace_id, trashed_at) WHERE trashed_at IS NOT NULL AND trash_root_id = id');
    await query('CREATE INDEX uploads_expiry_idx ON uploads (workspace_id, expires_at)');
  },
  async down({ query }) {
    await query('DROP INDEX uploads_expiry_idx; DROP INDEX items_trash_idx; DROP TABLE schedules');
  },
};
