import type { Migration } from '../migrations.js';

/**
 * The event bus: the catalog every process shares (participants, the actions they emit, their
 * subscriptions), the outbox that doubles as the event log, the dedupe index, and the delivery
 * log (one row per delivery, its attempts in `attempt_log`). The job queue itself (pg-boss) lives in its own schema `pgboss`,
 * created by pg-boss when a broker starts.
 */
export const migration: Migration = {
  name: '0300-events',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.event_participants (
        slug text PRIMARY KEY,
        first_party boolean NOT NULL,
        address text NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE platform.event_actions (
        action text NOT NULL,
        emitter text NOT NULL REFERENCES platform.event_participants(slug) ON DELETE CASCADE,
        description text NOT NULL,
        schema jsonb NOT NULL,
        redact jsonb NOT NULL DEFAULT '[]'::jsonb,
        PRIMARY KEY (action, emitter)
      );
      CREATE TABLE platform.event_subscriptions (
        subscriber text NOT NULL REFERENCES platform.event_participants(slug) ON DELETE CASCADE,
        action text NOT NULL,
        handler text NOT NULL,
        max_retries integer NOT NULL DEFAULT 3 CHECK (max_retries >= 0),
        PRIMARY KEY (subscriber, action, handler)
      );
      CREATE TABLE platform.event_settings (
        key text PRIMARY KEY,
        value text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE platform.events (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        emitter text NOT NULL,
        action text NOT NULL,
        payload jsonb NOT NULL,
        metadata jsonb NOT NULL,
        dedupe_key text NULL,
        deliver_at timestamptz NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'rejected', 'duplicate')),
        reason text NULL,
        deliveries integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        processed_at timestamptz NULL
      );
      CREATE INDEX events_pending_idx ON platform.events (seq) WHERE status = 'pending';
      CREATE INDEX events_workspace_idx ON platform.events (workspace_id, created_at DESC);
      CREATE INDEX events_created_idx ON platform.events (created_at);
      CREATE TABLE platform.event_dedupe (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        action text NOT NULL,
        dedupe_key text NOT NULL,
        payload_hash text NOT NULL,
        event_id uuid NOT NULL REFERENCES platform.events(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, action, dedupe_key, payload_hash)
      );
      CREATE INDEX event_dedupe_event_idx ON platform.event_dedupe (event_id);
      CREATE TABLE platform.event_deliveries (
        id uuid PRIMARY KEY,
        event_id uuid NOT NULL REFERENCES platform.events(id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        action text NOT NULL,
        subscriber text NOT NULL,
        handler text NOT NULL,
        max_retries integer NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'retrying', 'delivered', 'exhausted')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        last_status integer NULL,
        last_error text NULL,
        replay_of uuid NULL REFERENCES platform.event_deliveries(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz NULL,
        -- Each attempt as it settles, appended to the delivery row: one write per attempt.
        attempt_log jsonb NOT NULL DEFAULT '[]'::jsonb
      );
      CREATE INDEX event_deliveries_recent_idx ON platform.event_deliveries (created_at DESC);
      CREATE INDEX event_deliveries_due_idx ON platform.event_deliveries (next_attempt_at) WHERE status IN ('pending', 'retrying');
      CREATE INDEX event_deliveries_event_idx ON platform.event_deliveries (event_id);
      CREATE INDEX event_deliveries_workspace_idx ON platform.event_deliveries (workspace_id, created_at DESC);
    `);
  },
  async down({ sequelize }) {
    await sequelize.query(`
      DROP TABLE platform.event_deliveries;
      DROP TABLE platform.event_dedupe;
      DROP TABLE platform.events;
      DROP TABLE platform.event_settings;
      DROP TABLE platform.event_subscriptions;
      DROP TABLE platform.event_actions;
      DROP TABLE platform.event_participants;
    `);
  },
};
