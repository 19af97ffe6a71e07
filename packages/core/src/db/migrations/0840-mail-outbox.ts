import type { Migration } from '../migrations.js';

/**
 * The apps' outgoing mail (`ctx.mail`, mail/outbox.ts): one row per queued mail, written in the
 * transaction of the work that sent it, deleted once the transport took it. `next_attempt_at`
 * is when it may be tried (again); a claimed row holds a lease there. `failed` rows are kept
 * for the operator after the last attempt. The workspace id leads the key (the distribution column).
 */
export const migration: Migration = {
  name: '0840-mail-outbox',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE platform.mail_outbox (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        app varchar(200) NOT NULL,
        message jsonb NOT NULL,
        state varchar(10) NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        last_error text,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (workspace_id, id)
      );
      CREATE INDEX mail_outbox_due ON platform.mail_outbox (next_attempt_at) WHERE state = 'queued';
    `);
  },
  async down({ sequelize }) {
    await sequelize.query('DROP TABLE platform.mail_outbox;');
  },
};
