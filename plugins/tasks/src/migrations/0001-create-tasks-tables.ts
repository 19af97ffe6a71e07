import type { AppMigration } from '@wpk/sdk';

/**
 * The Tasks app's tables, in its own schema (`app_tasks`; the runtime sets `search_path`).
 * Every row carries `workspace_id`, which cascades from the platform's workspace so removing a
 * workspace removes its tasks. References between the app's own tables are plain foreign keys:
 * a topic's deletion leaves its tasks with no topic, a board's deletion takes its tasks along.
 */
export const createTasksTables: AppMigration = {
  name: '0001-create-tasks-tables',
  async up({ query }) {
    await query(`
      CREATE TABLE boards (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        title varchar(200) NOT NULL,
        description varchar(2000) NOT NULL DEFAULT '',
        is_template boolean NOT NULL DEFAULT false,
        template_id uuid REFERENCES boards(id) ON DELETE SET NULL,
        grid jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(grid) = 'object'),
        lanes jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(lanes) = 'array'),
        creator_id uuid NOT NULL,
        archived_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX boards_workspace_idx ON boards (workspace_id, created_at);

      CREATE TABLE topics (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        board_id uuid NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
        name varchar(80) NOT NULL,
        color varchar(7),
        creator_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX topics_board_name_idx ON topics (board_id, lower(name));

      CREATE TABLE schedules (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        name varchar(120) NOT NULL,
        start_date date,
        end_date date,
        creator_id uuid NOT NULL,
        completed_at timestamptz,
        completed_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (end_date IS NULL OR start_date IS NULL OR end_date >= start_date)
      );
      CREATE INDEX schedules_workspace_idx ON schedules (workspace_id, created_at);

      CREATE TABLE tasks (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        title varchar(200) NOT NULL,
        description varchar(10000) NOT NULL DEFAULT '',
        board_id uuid REFERENCES boards(id) ON DELETE CASCADE,
        lane varchar(80),
        topic_id uuid REFERENCES topics(id) ON DELETE SET NULL,
        schedule_id uuid REFERENCES schedules(id) ON DELETE SET NULL,
        priority varchar(10) NOT NULL DEFAULT 'none' CHECK (priority IN ('none', 'low', 'medium', 'high', 'urgent')),
        start_date date,
        due_date date,
        blocked_by uuid REFERENCES tasks(id) ON DELETE SET NULL,
        creator_id uuid NOT NULL,
        completed_at timestamptz,
        completed_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (due_date IS NULL OR start_date IS NULL OR due_date >= start_date),
        CHECK (blocked_by IS NULL OR blocked_by <> id)
      );
      CREATE INDEX tasks_workspace_board_idx ON tasks (workspace_id, board_id, created_at);
      CREATE INDEX tasks_schedule_idx ON tasks (workspace_id, schedule_id) WHERE schedule_id IS NOT NULL;
      CREATE INDEX tasks_blocked_by_idx ON tasks (blocked_by) WHERE blocked_by IS NOT NULL;

      CREATE TABLE task_assignees (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        task_id uuid NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
        member_id uuid NOT NULL,
        assigned_by uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (task_id, member_id)
      );
      CREATE INDEX task_assignees_member_idx ON task_assignees (workspace_id, member_id);

      CREATE TABLE task_comments (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        task_id uuid NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
        author_id uuid NOT NULL,
        body varchar(5000) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX task_comments_task_idx ON task_comments (task_id, created_at);

      CREATE TABLE deliverables (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        task_id uuid NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
        title varchar(200) NOT NULL,
        url varchar(2000),
        creator_id uuid NOT NULL,
        delivered_at timestamptz,
        delivered_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX deliverables_task_idx ON deliverables (task_id, created_at);

      CREATE TABLE board_members (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        board_id uuid NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
        member_id uuid NOT NULL,
        role varchar(10) NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
        added_by uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (board_id, member_id)
      );
      CREATE INDEX board_members_member_idx ON board_members (workspace_id, member_id);

      CREATE TABLE views (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        board_id uuid NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
        owner_id uuid NOT NULL,
        name varchar(80) NOT NULL,
        tab varchar(40) NOT NULL,
        schedule_id uuid REFERENCES schedules(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX views_owner_idx ON views (workspace_id, owner_id, board_id);

      CREATE TABLE member_directory (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        member_id uuid NOT NULL,
        removed_at timestamptz,
        removed_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, member_id)
      );
    `);
  },
  async down({ query }) {
    await query(`
      DROP TABLE member_directory;
      DROP TABLE views;
      DROP TABLE board_members;
      DROP TABLE deliverables;
      DROP TABLE task_comments;
      DROP TABLE task_assignees;
      DROP TABLE tasks;
      DROP TABLE schedules;
      DROP TABLE topics;
      DROP TABLE boards;
    `);
  },
};
