import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The finance tables. Money is `numeric(20,2)` (exchange rates `numeric(20,10)`), never a float.
 * Posted journal entries and lines are immutable: a trigger refuses every UPDATE and DELETE of
 * them, except the cascade that removes a deleted workspace's rows (it runs inside the
 * workspace's foreign-key trigger, so `pg_trigger_depth()` is above 1 there).
 */
export const createFinanceTables: AppMigration = {
  name: '0001-create-finance-tables',
  async up({ query }) {
    await query(
      tenantTable('accounts', {
        columns: {
          id: 'uuid NOT NULL',
          code: 'varchar(20) NOT NULL',
          name: 'varchar(200) NOT NULL',
          type: "varchar(20) NOT NULL CHECK (type IN ('asset', 'liability', 'equity', 'income', 'expense'))",
          parent_id: 'uuid',
          description: "varchar(1000) NOT NULL DEFAULT ''",
          normal_balance: "varchar(6) NOT NULL CHECK (normal_balance IN ('debit', 'credit'))",
          is_contra: 'boolean NOT NULL DEFAULT false',
          is_bank: 'boolean NOT NULL DEFAULT false',
          display_name: 'varchar(200)',
          show_in_unified: 'boolean NOT NULL DEFAULT true',
          system_role: 'varchar(40)',
        },
        references: { parent_id: { table: 'accounts', onDelete: 'no action' } },
        unique: [['lower(code)'], ['system_role']],
      }),
    );
    await query(
      tenantTable('bills', {
        columns: {
          id: 'uuid NOT NULL',
          status: "varchar(10) NOT NULL CHECK (status IN ('draft', 'received', 'approved', 'void'))",
          date: 'date NOT NULL',
          due_date: 'date',
          currency: 'char(3) NOT NULL',
          exchange_rate: 'numeric(20,10) NOT NULL CHECK (exchange_rate > 0)',
          base_currency: 'char(3) NOT NULL',
          company_mrn: 'varchar(300)',
          contact_mrn: 'varchar(300)',
          memo: "varchar(5000) NOT NULL DEFAULT ''",
          tags: "jsonb NOT NULL DEFAULT '[]'",
          dimensions: "jsonb NOT NULL DEFAULT '{}'",
          sources: "jsonb NOT NULL DEFAULT '[]'",
          items: "jsonb NOT NULL DEFAULT '[]'",
          adjustments: "jsonb NOT NULL DEFAULT '[]'",
          subtotal: 'numeric(20,2) NOT NULL',
          tax_total: 'numeric(20,2) NOT NULL',
          adjustment_total: 'numeric(20,2) NOT NULL',
          total: 'numeric(20,2) NOT NULL',
          base_total: 'numeric(20,2) NOT NULL',
          idempotency_key: 'varchar(100)',
          created_by: 'uuid NOT NULL',
          received_at: 'timestamptz',
          approved_at: 'timestamptz',
          voided_at: 'timestamptz',
          journal_entry_id: 'uuid',
          reversal_entry_id: 'uuid',
        },
        unique: [['idempotency_key']],
      }),
    );
    await query('CREATE INDEX bills_status_idx ON bills (workspace_id, status, date)');
    await query(
      tenantTable('journal_entries', {
        columns: {
          id: 'uuid NOT NULL',
          bill_id: 'uuid',
          kind: "varchar(10) NOT NULL CHECK (kind IN ('bill', 'reversal'))",
          reverses_id: 'uuid',
          date: 'date NOT NULL',
          memo: "varchar(5000) NOT NULL DEFAULT ''",
          currency: 'char(3) NOT NULL',
          created_by: 'uuid NOT NULL',
          created_at: 'timestamptz NOT NULL DEFAULT now()',
        },
        timestamps: false,
        references: { bill_id: { table: 'bills', onDelete: 'no action' }, reverses_id: { table: 'journal_entries', onDelete: 'no action' } },
        unique: [['reverses_id']],
      }),
    );
    await query(
      tenantTable('journal_lines', {
        columns: {
          id: 'uuid NOT NULL',
          entry_id: 'uuid NOT NULL',
          line_no: 'integer NOT NULL',
          account_id: 'uuid NOT NULL',
          debit: 'numeric(20,2) NOT NULL CHECK (debit >= 0)',
          credit: 'numeric(20,2) NOT NULL CHECK (credit >= 0)',
          currency: 'char(3) NOT NULL',
          amount_currency: 'numeric(20,2) NOT NULL',
          description: "varchar(5000) NOT NULL DEFAULT ''",
          dimensions: "jsonb NOT NULL DEFAULT '{}'",
          date: 'date NOT NULL',
        },
        timestamps: false,
        references: { entry_id: { table: 'journal_entries', onDelete: 'no action' }, account_id: { table: 'accounts', onDelete: 'no action' } },
        unique: [['entry_id', 'line_no']],
      }),
    );
    await query('ALTER TABLE journal_lines ADD CONSTRAINT journal_lines_one_side CHECK ((debit = 0) <> (credit = 0))');
    await query('CREATE INDEX journal_lines_account_idx ON journal_lines (workspace_id, account_id, date)');
    await query(
      tenantTable('budgets', {
        columns: {
          id: 'uuid NOT NULL',
          account_id: 'uuid NOT NULL',
          period_start: 'date NOT NULL',
          period_end: 'date NOT NULL',
          amount: 'numeric(20,2) NOT NULL',
          department: 'varchar(200)',
          location: 'varchar(200)',
          project: 'varchar(200)',
          notes: "varchar(2000) NOT NULL DEFAULT ''",
          created_by: 'uuid NOT NULL',
        },
        references: { account_id: { table: 'accounts', onDelete: 'no action' } },
      }),
    );
    await query('ALTER TABLE budgets ADD CONSTRAINT budgets_period CHECK (period_start <= period_end)');
    await query(tenantTable('books', { columns: { id: 'uuid NOT NULL', seeded_at: 'timestamptz NOT NULL' }, timestamps: false }));
    await query(`
      CREATE FUNCTION refuse_posted_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF pg_trigger_depth() > 1 THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'posted journal entries are immutable: % of %.% refused (post a reversal instead)', TG_OP, TG_TABLE_SCHEMA, TG_TABLE_NAME
          USING ERRCODE = 'integrity_constraint_violation';
      END
      $$`);
    await query('CREATE TRIGGER journal_entries_immutable BEFORE UPDATE OR DELETE ON journal_entries FOR EACH ROW EXECUTE FUNCTION refuse_posted_change()');
    await query('CREATE TRIGGER journal_lines_immutable BEFORE UPDATE OR DELETE ON journal_lines FOR EACH ROW EXECUTE FUNCTION refuse_posted_change()');
  },
  async down({ query }) {
    await query('DROP TABLE books; DROP TABLE budgets; DROP TABLE journal_lines; DROP TABLE journal_entries; DROP TABLE bills; DROP TABLE accounts; DROP FUNCTION refuse_posted_change()');
  },
};
