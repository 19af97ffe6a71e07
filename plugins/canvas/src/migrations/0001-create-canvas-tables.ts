import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The Canvas app's tables, in its own schema (`app_canvas`). A board's objects live in its Yjs
 * document: a snapshot (`board_documents`) plus the updates applied since (`board_updates`),
 * merged into the snapshot every `compact_after_updates`. The workspace id leads every key; a
 * board's rows go with the board (`referencesWorkspace: false`), the board with its workspace.
 */
export const createCanvasTables: AppMigration = {
  name: '0001-create-canvas-tables',
  async up({ query }) {
    const ofBoard = { references: { board_id: { table: 'boards' } }, referencesWorkspace: false };
    await query(
      tenantTable('boards', {
        columns: { id: 'uuid NOT NULL', name: 'varchar(200) NOT NULL', description: "varchar(2000) NOT NULL DEFAULT ''", creator_id: 'uuid NOT NULL', object_count: 'integer NOT NULL DEFAULT 0' },
      }),
    );
    await query(tenantTable('board_documents', { ...ofBoard, columns: { board_id: 'uuid NOT NULL', snapshot: 'bytea NOT NULL' }, primaryKey: ['board_id'] }));
    await query(tenantTable('board_updates', { ...ofBoard, columns: { id: 'uuid NOT NULL', board_id: 'uuid NOT NULL', data: 'bytea NOT NULL', member_id: 'uuid NOT NULL' } }));
    await query('CREATE INDEX board_updates_board_idx ON board_updates (workspace_id, board_id, created_at)');
    await query(
      tenantTable('comments', {
        ...ofBoard,
        columns: {
          id: 'uuid NOT NULL',
          board_id: 'uuid NOT NULL',
          object_id: 'varchar(100) NOT NULL',
          body: 'text NOT NULL',
          author_id: 'uuid NOT NULL',
          edited_at: 'timestamptz',
          resolved_at: 'timestamptz',
          resolved_by: 'uuid',
        },
      }),
    );
    await query('CREATE INDEX comments_board_idx ON comments (workspace_id, board_id, created_at)');
    await query(
      tenantTable('vote_sessions', {
        ...ofBoard,
        columns: {
          id: 'uuid NOT NULL',
          board_id: 'uuid NOT NULL',
          title: "varchar(200) NOT NULL DEFAULT ''",
          votes_per_member: 'integer NOT NULL',
          allow_multiple: 'boolean NOT NULL DEFAULT false',
          status: "varchar(10) NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed'))",
          started_by: 'uuid NOT NULL',
          closed_at: 'timestamptz',
          closed_by: 'uuid',
        },
      }),
    );
    await query("CREATE UNIQUE INDEX vote_sessions_open_idx ON vote_sessions (workspace_id, board_id) WHERE status = 'open'");
    await query(
      tenantTable('votes', {
        columns: { id: 'uuid NOT NULL', session_id: 'uuid NOT NULL', object_id: 'varchar(100) NOT NULL', member_id: 'uuid NOT NULL' },
        references: { session_id: { table: 'vote_sessions' } },
        referencesWorkspace: false,
      }),
    );
    await query('CREATE INDEX votes_session_idx ON votes (workspace_id, session_id, member_id)');
    await query(
      tenantTable('exports', {
        ...ofBoard,
        columns: {
          board_id: 'uuid NOT NULL',
          target: "varchar(10) NOT NULL CHECK (target IN ('png', 'svg', 'pdf'))",
          storage_key: 'varchar(300) NOT NULL',
          content_type: 'varchar(100) NOT NULL',
          size_bytes: 'integer NOT NULL',
          object_count: 'integer NOT NULL',
          created_by: 'uuid NOT NULL',
        },
        primaryKey: ['board_id', 'target'],
      }),
    );
  },
  async down({ query }) {
    await query('DROP TABLE exports, votes, vote_sessions, comments, board_updates, board_documents, boards');
  },
};
