import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The Slides app's tables, in its own schema (`app_slides`). A deck's content is one JSONB
 * document (theme + slides) with a version; presentations and view-only links (only a token's SHA-256 kept) go with their deck. `deck_calls` is the
 * event-fed copy of calls started from a deck (no foreign key: the call event may name a deck
 * deleted since). The workspace id leads every key.
 */
export const createSlidesTables: AppMigration = {
  name: '0001-create-slides-tables',
  async up({ query }) {
    await query(
      tenantTable('decks', {
        columns: {
          id: 'uuid NOT NULL',
          title: 'varchar(200) NOT NULL',
          theme: 'jsonb NOT NULL',
          slides: "jsonb NOT NULL DEFAULT '[]'",
          version: 'integer NOT NULL DEFAULT 1',
          slide_count: 'integer NOT NULL DEFAULT 0',
          creator_id: 'uuid NOT NULL',
        },
      }),
    );
    await query(
      tenantTable('presentations', {
        references: { deck_id: { table: 'decks' } },
        referencesWorkspace: false,
        columns: {
          id: 'uuid NOT NULL',
          deck_id: 'uuid NOT NULL',
          presenter_id: 'uuid NOT NULL',
          driver_id: 'uuid NOT NULL',
          slide: 'integer NOT NULL DEFAULT 0',
          status: "varchar(10) NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'ended'))",
          call_id: 'uuid',
          started_at: 'timestamptz NOT NULL',
          ended_at: 'timestamptz',
          end_reason: "varchar(20) CHECK (end_reason IN ('ended', 'deck_deleted', 'call_ended'))",
        },
      }),
    );
    await query("CREATE UNIQUE INDEX presentations_live_idx ON presentations (workspace_id, deck_id) WHERE status = 'live'");
    await query('CREATE INDEX presentations_call_idx ON presentations (workspace_id, call_id)');
    await query(
      tenantTable('links', {
        references: { deck_id: { table: 'decks' } },
        referencesWorkspace: false,
        columns: { id: 'uuid NOT NULL', deck_id: 'uuid NOT NULL', token_hash: 'varchar(64) NOT NULL', created_by: 'uuid NOT NULL', expires_at: 'timestamptz' },
      }),
    );
    await query('CREATE UNIQUE INDEX links_token_idx ON links (workspace_id, token_hash)');
    await query('CREATE INDEX links_deck_idx ON links (workspace_id, deck_id)');
    await query(
      tenantTable('comments', {
        references: { deck_id: { table: 'decks' } },
        referencesWorkspace: false,
        columns: {
          id: 'uuid NOT NULL',
          deck_id: 'uuid NOT NULL',
          slide_id: 'varchar(64) NOT NULL',
          element_id: 'varchar(64)',
          body: 'text NOT NULL',
          author_id: 'uuid NOT NULL',
          resolved_at: 'timestamptz',
          resolved_by: 'uuid',
        },
      }),
    );
    await query('CREATE INDEX comments_deck_idx ON comments (workspace_id, deck_id, created_at)');
    await query(
      tenantTable('deck_calls', {
        columns: {
          id: 'uuid NOT NULL',
          deck_id: 'uuid NOT NULL',
          participant_ids: "jsonb NOT NULL DEFAULT '[]'",
          status: "varchar(10) NOT NULL CHECK (status IN ('live', 'ended'))",
          ended_at: 'timestamptz',
        },
      }),
    );
    await query('CREATE INDEX deck_calls_deck_idx ON deck_calls (workspace_id, deck_id)');
  },
  async down({ query }) {
    await query('DROP TABLE deck_calls, comments, links, presentations, decks');
  },
};
