import type { Migration } from '../migrations.js';

/**
 * The attempts of a delivery move into the delivery row (`attempt_log`, a JSON array appended
 * to as each attempt settles): one row write per attempt instead of two, and no foreign-key
 * checks per attempt, which dominated settling on the embedded database.
 */
export const migration: Migration = {
  name: '0301-event-attempt-log',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE platform.event_deliveries ADD COLUMN attempt_log jsonb NOT NULL DEFAULT '[]'::jsonb;
      UPDATE platform.event_deliveries d
         SET attempt_log = (
           SELECT COALESCE(jsonb_agg(jsonb_build_object('attempt', a.attempt, 'started_at', a.started_at, 'duration_ms', a.duration_ms,
                                                        'status_code', a.status_code, 'error', a.error, 'outcome', a.outcome) ORDER BY a.attempt), '[]'::jsonb)
             FROM platform.event_delivery_attempts a WHERE a.delivery_id = d.id);
      DROP TABLE platform.event_delivery_attempts;
    `);
  },
  async down({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.event_delivery_attempts (
        delivery_id uuid NOT NULL REFERENCES platform.event_deliveries(id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        started_at timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        status_code integer NULL,
        error text NULL,
        outcome text NOT NULL CHECK (outcome IN ('delivered', 'failed')),
        PRIMARY KEY (delivery_id, attempt)
      );
      INSERT INTO platform.event_delivery_attempts (delivery_id, attempt, workspace_id, started_at, duration_ms, status_code, error, outcome)
      SELECT d.id, (e->>'attempt')::int, d.workspace_id, (e->>'started_at')::timestamptz, (e->>'duration_ms')::int, (e->>'status_code')::int, e->>'error', e->>'outcome'
        FROM platform.event_deliveries d, jsonb_array_elements(d.attempt_log) e
      ON CONFLICT DO NOTHING;
      ALTER TABLE platform.event_deliveries DROP COLUMN attempt_log;
    `);
  },
};
