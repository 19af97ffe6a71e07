import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * Wands (the editable definition), their frozen versions (one per activation; a run pins one),
 * the inbound-webhook secrets (SHA-256 only), runs and their per-step log, and the micron usage
 * rows (exact integers, summed in SQL).
 */
export const createWands: AppMigration = {
  name: '0001-create-wands',
  async up({ query }) {
    await query(
      tenantTable('wands', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          owner_id: 'uuid NOT NULL',
          status: "varchar(20) NOT NULL CHECK (status IN ('draft', 'active', 'paused', 'suspended'))",
          status_reason: 'varchar(500)',
          suspended_owner_id: 'uuid',
          triggers: "jsonb NOT NULL DEFAULT '[]'",
          steps: "jsonb NOT NULL DEFAULT '[]'",
          scopes: "jsonb NOT NULL DEFAULT '[]'",
          version: 'integer',
          revision: 'integer NOT NULL DEFAULT 1',
          created_by: 'uuid NOT NULL',
        },
      }),
    );
    await query('CREATE INDEX wands_owner_idx ON wands (workspace_id, owner_id)');
    await query(
      tenantTable('wand_versions', {
        columns: { id: 'uuid NOT NULL', wand_id: 'uuid NOT NULL', number: 'integer NOT NULL CHECK (number > 0)', triggers: 'jsonb NOT NULL', steps: 'jsonb NOT NULL', scopes: 'jsonb NOT NULL', activated_by: 'uuid NOT NULL' },
        references: { wand_id: { table: 'wands', onDelete: 'cascade' } },
        unique: [['wand_id', 'number']],
      }),
    );
    await query(
      tenantTable('webhook_secrets', {
        columns: { id: 'uuid NOT NULL', wand_id: 'uuid NOT NULL', trigger_id: 'varchar(40) NOT NULL', token_hash: 'char(64) NOT NULL' },
        references: { wand_id: { table: 'wands', onDelete: 'cascade' } },
        unique: [['token_hash'], ['wand_id', 'trigger_id']],
      }),
    );
    await query(
      tenantTable('runs', {
        columns: {
          id: 'uuid NOT NULL',
          wand_id: 'uuid NOT NULL',
          version: 'integer NOT NULL',
          status: "varchar(20) NOT NULL CHECK (status IN ('running', 'waiting', 'completed', 'failed', 'stopped'))",
          dry_run: 'boolean NOT NULL DEFAULT false',
          trigger_id: 'varchar(40) NOT NULL',
          trigger_kind: 'varchar(20) NOT NULL',
          source_key: 'varchar(200) NOT NULL',
          input: "jsonb NOT NULL DEFAULT '{}'",
          vars: "jsonb NOT NULL DEFAULT '{}'",
          next_step: 'integer NOT NULL DEFAULT 0',
          attempt: 'integer NOT NULL DEFAULT 0',
          error: 'varchar(1000)',
          rerun_of: 'uuid',
          microns: 'bigint NOT NULL DEFAULT 0',
          finished_at: 'timestamptz',
        },
        references: { wand_id: { table: 'wands', onDelete: 'cascade' } },
        unique: [['wand_id', 'source_key']],
      }),
    );
    await query('CREATE INDEX runs_wand_idx ON runs (workspace_id, wand_id, created_at)');
    await query(
      tenantTable('run_steps', {
        columns: {
          id: 'uuid NOT NULL',
          run_id: 'uuid NOT NULL',
          position: 'integer NOT NULL',
          step: 'integer NOT NULL',
          type: 'varchar(20) NOT NULL',
          status: "varchar(20) NOT NULL CHECK (status IN ('succeeded', 'failed', 'waiting', 'stopped', 'stubbed'))",
          attempt: 'integer NOT NULL DEFAULT 1',
          input: 'jsonb',
          output: 'jsonb',
          error: 'varchar(1000)',
          microns: 'bigint NOT NULL DEFAULT 0',
        },
        references: { run_id: { table: 'runs', onDelete: 'cascade' } },
        unique: [['run_id', 'position']],
      }),
    );
    await query(
      tenantTable('usage', {
        columns: {
          id: 'uuid NOT NULL',
          wand_id: 'uuid NOT NULL',
          run_id: 'uuid NOT NULL',
          kind: "varchar(20) NOT NULL CHECK (kind IN ('step', 'ai_tokens'))",
          quantity: 'integer NOT NULL CHECK (quantity >= 0)',
          microns: 'bigint NOT NULL CHECK (microns >= 0)',
          period: 'char(7) NOT NULL',
          dedupe_key: 'varchar(200) NOT NULL',
        },
        unique: [['dedupe_key']],
      }),
    );
    await query('CREATE INDEX usage_period_idx ON usage (workspace_id, period)');
  },
  async down({ query }) {
    await query('DROP TABLE usage; DROP TABLE run_steps; DROP TABLE runs; DROP TABLE webhook_secrets; DROP TABLE wand_versions; DROP TABLE wands');
  },
};
