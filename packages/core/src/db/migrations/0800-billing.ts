import type { Migration } from '../migrations.js';

/**
 * Billing (docs/billing.md): each workspace's billing account (its paid period and the loop's next
 * firing), invoices with their lines in exact decimals, payment methods (the provider's token,
 * brand, last 4 and expiry: never a card number or CVV), and coupons with their redemptions.
 * An invoice's `billing_key` names the period or change it bills: unique per workspace, so a
 * period is never billed twice whatever runs it.
 */
export const migration: Migration = {
  name: '0800-billing',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.billing_accounts (
        workspace_id uuid PRIMARY KEY REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        loop varchar(10) NOT NULL CHECK (loop IN ('monthly', 'usage')),
        anchor timestamptz NOT NULL,
        period_start timestamptz NOT NULL,
        period_end timestamptz NOT NULL,
        seats_paid integer NOT NULL CHECK (seats_paid >= 0),
        usage_from timestamptz NOT NULL,
        run_index integer NOT NULL CHECK (run_index >= 1),
        next_run_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE platform.invoices (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        number integer NOT NULL,
        billing_key varchar(120) NOT NULL,
        kind varchar(10) NOT NULL CHECK (kind IN ('seats', 'usage')),
        plan varchar(40) NOT NULL,
        billing_interval varchar(10) NOT NULL CHECK (billing_interval IN ('monthly', 'annual')),
        period_start timestamptz NOT NULL,
        period_end timestamptz NOT NULL,
        amount numeric(14, 2) NOT NULL,
        currency char(3) NOT NULL,
        status varchar(10) NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'void')),
        issued_at timestamptz NOT NULL,
        due_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, id),
        UNIQUE (workspace_id, billing_key),
        UNIQUE (workspace_id, number)
      );
      CREATE INDEX invoices_listing_idx ON platform.invoices (workspace_id, issued_at DESC, number DESC);

      CREATE TABLE platform.invoice_lines (
        workspace_id uuid NOT NULL,
        invoice_id uuid NOT NULL,
        position smallint NOT NULL,
        description varchar(300) NOT NULL,
        quantity integer NOT NULL,
        unit_amount numeric(14, 2) NOT NULL,
        amount numeric(14, 2) NOT NULL,
        PRIMARY KEY (workspace_id, invoice_id, position),
        FOREIGN KEY (workspace_id, invoice_id) REFERENCES platform.invoices (workspace_id, id) ON DELETE CASCADE
      );

      CREATE TABLE platform.payment_methods (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        provider varchar(20) NOT NULL,
        provider_token varchar(255) NOT NULL,
        brand varchar(20) NOT NULL,
        last4 char(4) NOT NULL,
        exp_month smallint NOT NULL CHECK (exp_month BETWEEN 1 AND 12),
        exp_year smallint NOT NULL,
        is_default boolean NOT NULL DEFAULT false,
        created_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, id)
      );

      CREATE TABLE platform.coupons (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        code varchar(40) NOT NULL,
        percent_off smallint CHECK (percent_off BETWEEN 1 AND 100),
        amount_off numeric(14, 2) CHECK (amount_off > 0),
        currency char(3),
        description varchar(200) NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((percent_off IS NULL) <> (amount_off IS NULL))
      );
      CREATE UNIQUE INDEX coupons_code_key ON platform.coupons (upper(code));

      CREATE TABLE platform.coupon_redemptions (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        coupon_id uuid NOT NULL REFERENCES platform.coupons(id) ON DELETE CASCADE,
        status varchar(10) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'applied')),
        invoice_id uuid,
        discount numeric(14, 2),
        created_at timestamptz NOT NULL DEFAULT now(),
        applied_at timestamptz,
        PRIMARY KEY (workspace_id, id)
      );
      CREATE INDEX coupon_redemptions_pending_idx ON platform.coupon_redemptions (workspace_id, created_at) WHERE status = 'pending';
    `);
  },
  async down({ sequelize }) {
    await sequelize.query('DROP TABLE platform.coupon_redemptions; DROP TABLE platform.coupons; DROP TABLE platform.payment_methods; DROP TABLE platform.invoice_lines; DROP TABLE platform.invoices; DROP TABLE platform.billing_accounts;');
  },
};
