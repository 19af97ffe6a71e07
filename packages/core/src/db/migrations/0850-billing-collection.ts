import type { Migration } from '../migrations.js';

/**
 * Payment collection (docs/billing.md, "Collection and dunning"): an issued invoice is charged to
 * the workspace's default card by the payment provider. `attempt_count` counts the charges tried,
 * `next_attempt_at` is when the next one is due (null: none scheduled), `last_payment_error` the
 * provider's reason for the last failure; a paid invoice keeps the card and the provider's charge
 * id. An invoice whose charge failed is `past_due` (retried on the schedule); the billing account's
 * `past_due_since` marks the workspace past due once the schedule is exhausted, until every
 * invoice is paid. Messages get `seq` (posting order): several notices posted at one instant (a
 * failed charge and the past-due notice) read in the order they were posted.
 */
export const migration: Migration = {
  name: '0850-billing-collection',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE platform.invoices DROP CONSTRAINT invoices_status_check;
      ALTER TABLE platform.invoices ADD CONSTRAINT invoices_status_check CHECK (status IN ('open', 'past_due', 'paid', 'void'));
      ALTER TABLE platform.invoices
        ADD COLUMN attempt_count integer NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
        ADD COLUMN next_attempt_at timestamptz,
        ADD COLUMN last_payment_error varchar(300),
        ADD COLUMN paid_at timestamptz,
        ADD COLUMN payment_method_id uuid,
        ADD COLUMN provider_charge_id varchar(255);
      CREATE INDEX invoices_collection_idx ON platform.invoices (next_attempt_at, workspace_id) WHERE next_attempt_at IS NOT NULL;
      ALTER TABLE platform.billing_accounts ADD COLUMN past_due_since timestamptz;
      ALTER TABLE platform.messages ADD COLUMN seq bigserial;
    `);
  },
  async down({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE platform.messages DROP COLUMN seq;
      ALTER TABLE platform.billing_accounts DROP COLUMN past_due_since;
      DROP INDEX platform.invoices_collection_idx;
      ALTER TABLE platform.invoices DROP COLUMN attempt_count, DROP COLUMN next_attempt_at, DROP COLUMN last_payment_error, DROP COLUMN paid_at, DROP COLUMN payment_method_id, DROP COLUMN provider_charge_id;
      UPDATE platform.invoices SET status = 'open' WHERE status = 'past_due';
      ALTER TABLE platform.invoices DROP CONSTRAINT invoices_status_check;
      ALTER TABLE platform.invoices ADD CONSTRAINT invoices_status_check CHECK (status IN ('open', 'paid', 'void'));
    `);
  },
};
