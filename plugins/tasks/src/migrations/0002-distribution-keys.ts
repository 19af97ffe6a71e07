import type { AppMigration } from '@wpk/sdk';

/**
 * Keys a distributed PostgreSQL can shard by workspace (docs/scale-out.md): primary keys
 * `(workspace_id, id)`, unique indexes and foreign keys with `workspace_id` in them, and no
 * `ON DELETE SET NULL`: the services that delete a board, topic or task clear the references to
 * it first, in the same transaction (they already did, to emit `task.updated`).
 */
const BY_ID = ['boards', 'topics', 'schedules', 'tasks', 'task_comments', 'deliverables', 'views'];

const REFERENCES: Array<{ table: string; name: string; column: string; target: string; cascade: boolean }> = [
  { table: 'boards', name: 'boards_template_id_fkey', column: 'template_id', target: 'boards', cascade: false },
  { table: 'topics', name: 'topics_board_id_fkey', column: 'board_id', target: 'boards', cascade: true },
  { table: 'tasks', name: 'tasks_board_id_fkey', column: 'board_id', target: 'boards', cascade: true },
  { table: 'tasks', name: 'tasks_topic_id_fkey', column: 'topic_id', target: 'topics', cascade: false },
  { table: 'tasks', name: 'tasks_schedule_id_fkey', column: 'schedule_id', target: 'schedules', cascade: false },
  { table: 'tasks', name: 'tasks_blocked_by_fkey', column: 'blocked_by', target: 'tasks', cascade: false },
  { table: 'task_assignees', name: 'task_assignees_task_id_fkey', column: 'task_id', target: 'tasks', cascade: true },
  { table: 'task_comments', name: 'task_comments_task_id_fkey', column: 'task_id', target: 'tasks', cascade: true },
  { table: 'deliverables', name: 'deliverables_task_id_fkey', column: 'task_id', target: 'tasks', cascade: true },
  { table: 'board_members', name: 'board_members_board_id_fkey', column: 'board_id', target: 'boards', cascade: true },
  { table: 'views', name: 'views_board_id_fkey', column: 'board_id', target: 'boards', cascade: true },
  { table: 'views', name: 'views_schedule_id_fkey', column: 'schedule_id', target: 'schedules', cascade: false },
];

const PAIRS: Array<{ table: string; columns: string }> = [
  { table: 'task_assignees', columns: 'task_id, member_id' },
  { table: 'board_members', columns: 'board_id, member_id' },
];

export const distributionKeys: AppMigration = {
  name: '0002-distribution-keys',
  async up({ query }) {
    const statements: string[] = [];
    for (const fk of REFERENCES) statements.push(`ALTER TABLE ${fk.table} DROP CONSTRAINT ${fk.name}`);
    for (const table of BY_ID) statements.push(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey, ADD CONSTRAINT ${table}_pkey PRIMARY KEY (workspace_id, id)`);
    for (const pair of PAIRS) statements.push(`ALTER TABLE ${pair.table} DROP CONSTRAINT ${pair.table}_pkey, ADD CONSTRAINT ${pair.table}_pkey PRIMARY KEY (workspace_id, ${pair.columns})`);
    statements.push('DROP INDEX topics_board_name_idx', 'CREATE UNIQUE INDEX topics_board_name_idx ON topics (workspace_id, board_id, lower(name))');
    for (const fk of REFERENCES) {
      statements.push(`ALTER TABLE ${fk.table} ADD CONSTRAINT ${fk.name} FOREIGN KEY (workspace_id, ${fk.column}) REFERENCES ${fk.target} (workspace_id, id) ON DELETE ${fk.cascade ? 'CASCADE' : 'NO ACTION'}`);
    }
    await query(statements.join(';\n'));
  },
  async down({ query }) {
    const statements: string[] = [];
    for (const fk of REFERENCES) statements.push(`ALTER TABLE ${fk.table} DROP CONSTRAINT ${fk.name}`);
    statements.push('DROP INDEX topics_board_name_idx', 'CREATE UNIQUE INDEX topics_board_name_idx ON topics (board_id, lower(name))');
    for (const pair of PAIRS) statements.push(`ALTER TABLE ${pair.table} DROP CONSTRAINT ${pair.table}_pkey, ADD CONSTRAINT ${pair.table}_pkey PRIMARY KEY (${pair.columns})`);
    for (const table of BY_ID) statements.push(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey, ADD CONSTRAINT ${table}_pkey PRIMARY KEY (id)`);
    for (const fk of REFERENCES) {
      statements.push(`ALTER TABLE ${fk.table} ADD CONSTRAINT ${fk.name} FOREIGN KEY (${fk.column}) REFERENCES ${fk.target} (id) ON DELETE ${fk.cascade ? 'CASCADE' : 'SET NULL'}`);
    }
    await query(statements.join(';\n'));
  },
};
