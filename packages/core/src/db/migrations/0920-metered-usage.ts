import type { Migration } from '../migrations.js';

/**
 * Metered usage (docs/billing.md, "Metered usage"): the ledger `ctx.usage.record` writes, one
 * integer row of microns (10⁻⁶ of the billing currency) per record, per app and declared meter,
 * with an optional idempotency key unique per workspace and app; and each billing account's
 * `metered_to`, the instant up to which its metered usage is billed. An existing account's is its
 * `usage_from` (its last firing, or its period's start): no usage was recorded before this table.
 * A tenant table (workspace_id leads every key), distributed with the others (docs/scale-out.md).
 */
export const migration: Migration = {
  name: '0920-metered-usage',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.metered_usage (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        app varchar(120) NOT NULL,
        meter varchar(40) NOT NULL,
        microns bigint NOT NULL CHECK (microns > 0 AND microns <= 1000000000000),
        idempotency_key varchar(200),
        recorded_at timestamptz NOT NULL,
        PRIMARY KEY (workspace_id, id),
        UNIQUE (workspace_id, app, idempotency_key)
      );
      CREATE INDEX metered_usage_period_idx ON platform.metered_usage (workspace_id, recorded_at);
      ALTER TABLE platform.billing_accounts ADD COLUMN metered_to timestamptz;
      UPDATE platform.billing_accounts SET metered_to = usage_from;
      ALTER TABLE platform.billing_accounts ALTER COLUMN metered_to SET NOT NULL;
    `);
  },
  async down({ sequelize }) {
    await sequelize.query('ALTER TABLE platform.billing_accounts DROP COLUMN metered_to; DROP TABLE platform.metered_usage;');
  },
};
