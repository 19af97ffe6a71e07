import { tenantTable, type AppMigration } from '@wpk/sdk';

const MONEY = 'numeric(18,2) NOT NULL';

/**
 * The copies of contacts and companies (fed by events), pipelines and their ordered stages,
 * products with price lists, deals and their product lines, quotes (numbered per workspace under a
 * unique key), leads, and the Sign outcomes already applied (a repeated delivery finds its row).
 */
export const createCrm: AppMigration = {
  name: '0001-create-crm',
  async up({ query }) {
    await query(tenantTable('contacts', { columns: { id: 'uuid NOT NULL', display_name: 'varchar(300) NOT NULL', primary_email: 'varchar(320)', company_mrn: 'varchar(200)' } }));
    await query('CREATE INDEX contacts_email_idx ON contacts (workspace_id, lower(primary_email))');
    await query(tenantTable('companies', { columns: { id: 'uuid NOT NULL', name: 'varchar(300) NOT NULL', domain: 'varchar(300)', revision: 'integer NOT NULL' } }));
    await query('CREATE INDEX companies_name_idx ON companies (workspace_id, lower(name))');
    await query(tenantTable('pipelines', { columns: { id: 'uuid NOT NULL', name: 'varchar(200) NOT NULL', is_default: 'boolean NOT NULL DEFAULT false' }, unique: [['lower(name)']] }));
    await query(
      tenantTable('stages', {
        columns: {
          id: 'uuid NOT NULL',
          pipeline_id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          position: 'integer NOT NULL CHECK (position >= 0)',
          probability: 'integer NOT NULL CHECK (probability BETWEEN 0 AND 100)',
          sla_days: 'integer CHECK (sla_days > 0)',
        },
        references: { pipeline_id: { table: 'pipelines' } },
      }),
    );
    await query('CREATE INDEX stages_pipeline_idx ON stages (workspace_id, pipeline_id, position)');
    await query(
      tenantTable('products', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          sku: 'varchar(100)',
          description: "varchar(2000) NOT NULL DEFAULT ''",
          unit_price: `${MONEY} CHECK (unit_price >= 0)`,
          currency: 'char(3) NOT NULL',
          prices: "jsonb NOT NULL DEFAULT '[]'",
          active: 'boolean NOT NULL DEFAULT true',
          revision: 'integer NOT NULL DEFAULT 1',
        },
        unique: [['lower(sku)']],
      }),
    );
    await query(
      tenantTable('deals', {
        columns: {
          id: 'uuid NOT NULL',
          title: 'varchar(200) NOT NULL',
          pipeline_id: 'uuid NOT NULL',
          stage_id: 'uuid NOT NULL',
          status: "varchar(10) NOT NULL CHECK (status IN ('open', 'won', 'lost'))",
          amount: `${MONEY} CHECK (amount >= 0)`,
          currency: 'char(3) NOT NULL',
          close_date: 'date',
          company_mrn: 'varchar(200)',
          contact_mrn: 'varchar(200)',
          owner_id: 'uuid',
          lost_reason: 'varchar(1000)',
          lead_id: 'uuid',
          stage_entered_at: 'timestamptz NOT NULL',
          closed_at: 'timestamptz',
          revision: 'integer NOT NULL DEFAULT 1',
          created_by: 'uuid',
        },
        references: { pipeline_id: { table: 'pipelines', onDelete: 'restrict' }, stage_id: { table: 'stages', onDelete: 'restrict' } },
      }),
    );
    await query("ALTER TABLE deals ADD CHECK (status <> 'lost' OR lost_reason IS NOT NULL)");
    await query('CREATE INDEX deals_stage_idx ON deals (workspace_id, pipeline_id, stage_id)');
    await query('CREATE INDEX deals_close_idx ON deals (workspace_id, pipeline_id, close_date)');
    await query(
      tenantTable('deal_lines', {
        columns: {
          id: 'uuid NOT NULL',
          deal_id: 'uuid NOT NULL',
          position: 'integer NOT NULL',
          product_id: 'uuid',
          description: 'varchar(500) NOT NULL',
          quantity: 'numeric(18,4) NOT NULL CHECK (quantity > 0)',
          unit_price: `${MONEY} CHECK (unit_price >= 0)`,
          amount: MONEY,
        },
        references: { deal_id: { table: 'deals' }, product_id: { table: 'products', onDelete: 'restrict' } },
      }),
    );
    await query('CREATE INDEX deal_lines_deal_idx ON deal_lines (workspace_id, deal_id, position)');
    await query('CREATE INDEX deal_lines_product_idx ON deal_lines (workspace_id, product_id)');
    await query(
      tenantTable('quotes', {
        columns: {
          id: 'uuid NOT NULL',
          deal_id: 'uuid NOT NULL',
          number: 'integer NOT NULL CHECK (number > 0)',
          status: "varchar(10) NOT NULL CHECK (status IN ('draft', 'sent', 'accepted', 'declined', 'expired'))",
          valid_until: 'date',
          notes: "varchar(2000) NOT NULL DEFAULT ''",
          currency: 'char(3) NOT NULL',
          lines: "jsonb NOT NULL DEFAULT '[]'",
          total: MONEY,
          sent_at: 'timestamptz',
          decided_at: 'timestamptz',
          signature_requested_at: 'timestamptz',
          envelope_id: 'varchar(100)',
          created_by: 'uuid',
        },
        references: { deal_id: { table: 'deals' } },
        unique: [['number']],
      }),
    );
    await query('CREATE INDEX quotes_deal_idx ON quotes (workspace_id, deal_id)');
    await query(
      tenantTable('leads', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          email: 'varchar(320)',
          phone: 'varchar(50)',
          company_name: 'varchar(300)',
          source: "varchar(100) NOT NULL DEFAULT ''",
          notes: "varchar(2000) NOT NULL DEFAULT ''",
          status: "varchar(20) NOT NULL CHECK (status IN ('new', 'contacted', 'qualified', 'disqualified'))",
          disqualify_reason: 'varchar(1000)',
          owner_id: 'uuid',
          deal_id: 'uuid',
          contact_mrn: 'varchar(200)',
          company_mrn: 'varchar(200)',
          created_by: 'uuid',
        },
        references: { deal_id: { table: 'deals', onDelete: 'no action' } },
      }),
    );
    await query('CREATE INDEX leads_status_idx ON leads (workspace_id, status, created_at)');
    await query(
      tenantTable('sign_outcomes', {
        columns: { id: 'uuid NOT NULL', envelope_id: 'varchar(100) NOT NULL', outcome: 'varchar(20) NOT NULL', quote_id: 'uuid' },
        unique: [['envelope_id', 'outcome']],
      }),
    );
  },
  async down({ query }) {
    await query('DROP TABLE sign_outcomes; DROP TABLE leads; DROP TABLE quotes; DROP TABLE deal_lines; DROP TABLE deals; DROP TABLE products; DROP TABLE stages; DROP TABLE pipelines; DROP TABLE companies; DROP TABLE contacts');
  },
};
