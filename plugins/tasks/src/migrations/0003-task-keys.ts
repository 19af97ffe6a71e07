import type { AppMigration } from '@wpk/sdk';

/** The key prefix of a workspace, from its address: letters and digits, upper-case, at most 6, starting with a letter (`acme` → `ACME`). */
const PREFIX_OF_SUBDOMAIN = `(SELECT CASE WHEN s ~ '^[A-Z]' THEN left(s, 6) ELSE left('T' || s, 6) END
    FROM (SELECT upper(regexp_replace(w.subdomain, '[^a-zA-Z0-9]', '', 'g')) AS s) cleaned)`;

/**
 * Short task keys (`ACME-42`, Jira and Linear style): one counter per workspace, each task's
 * number and key stored when it is made and never changed (moving between boards, returning to
 * the incubator, renaming keep it); numbers are never reused, a deleted task's included.
 * Existing tasks get numbers in the order they were made.
 */
export const taskKeys: AppMigration = {
  name: '0003-task-keys',
  async up({ query }) {
    await query(`
      CREATE TABLE task_key_counters (
        id uuid NOT NULL,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        prefix varchar(10) NOT NULL CHECK (prefix ~ '^[A-Z][A-Z0-9]{0,9}$'),
        last_number integer NOT NULL CHECK (last_number >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, id)
      );
      CREATE UNIQUE INDEX task_key_counters_workspace_idx ON task_key_counters (workspace_id);

      ALTER TABLE tasks ADD COLUMN number integer, ADD COLUMN key varchar(20);

      INSERT INTO task_key_counters (id, workspace_id, prefix, last_number)
      SELECT gen_random_uuid(), w.id, ${PREFIX_OF_SUBDOMAIN}, count(*)
        FROM tasks t JOIN platform.workspaces w ON w.id = t.workspace_id
       GROUP BY w.id, w.subdomain;

      UPDATE tasks t SET number = n.number, key = c.prefix || '-' || n.number
        FROM (SELECT workspace_id, id, row_number() OVER (PARTITION BY workspace_id ORDER BY created_at, id)::int AS number FROM tasks) n
        JOIN task_key_counters c ON c.workspace_id = n.workspace_id
       WHERE t.workspace_id = n.workspace_id AND t.id = n.id;

      ALTER TABLE tasks ALTER COLUMN number SET NOT NULL, ALTER COLUMN key SET NOT NULL;
      CREATE UNIQUE INDEX tasks_number_idx ON tasks (workspace_id, number);
      CREATE UNIQUE INDEX tasks_key_idx ON tasks (workspace_id, key);
    `);
  },
  async down({ query }) {
    await query(`
      DROP INDEX tasks_key_idx;
      DROP INDEX tasks_number_idx;
      ALTER TABLE tasks DROP COLUMN key, DROP COLUMN number;
      DROP TABLE task_key_counters;
    `);
  },
};
