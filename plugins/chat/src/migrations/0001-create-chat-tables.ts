import type { AppMigration } from '@wpk/sdk';

/**
 * The Chat app's tables, in its own schema (`app_chat`). The workspace id leads or joins every
 * key (docs/scale-out.md); references between the app's tables carry it. A message's `seq` orders
 * a chat's messages and measures read positions; a deleted message keeps its row (a tombstone).
 */
export const createChatTables: AppMigration = {
  name: '0001-create-chat-tables',
  async up({ query }) {
    await query(`
      CREATE TABLE chats (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        type varchar(10) NOT NULL CHECK (type IN ('direct', 'group', 'channel')),
        name varchar(200),
        topic varchar(1000) NOT NULL DEFAULT '',
        direct_key varchar(80),
        creator_id uuid NOT NULL,
        last_seq bigint NOT NULL DEFAULT 0,
        last_message_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, id)
      );
      CREATE UNIQUE INDEX chats_direct_key_idx ON chats (workspace_id, direct_key) WHERE direct_key IS NOT NULL;

      CREATE TABLE participants (
        workspace_id uuid NOT NULL,
        chat_id uuid NOT NULL,
        member_id uuid NOT NULL,
        role varchar(10) NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'member')),
        muted boolean NOT NULL DEFAULT false,
        last_read_seq bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, chat_id, member_id),
        FOREIGN KEY (workspace_id, chat_id) REFERENCES chats(workspace_id, id) ON DELETE CASCADE
      );
      CREATE INDEX participants_member_idx ON participants (workspace_id, member_id);

      CREATE TABLE messages (
        workspace_id uuid NOT NULL,
        id uuid NOT NULL,
        chat_id uuid NOT NULL,
        seq bigint NOT NULL,
        sender_id uuid NOT NULL,
        body text NOT NULL DEFAULT '',
        parent_id uuid,
        reply_count integer NOT NULL DEFAULT 0,
        attachment jsonb,
        mentions jsonb NOT NULL DEFAULT '[]',
        edited_at timestamptz,
        deleted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, id),
        FOREIGN KEY (workspace_id, chat_id) REFERENCES chats(workspace_id, id) ON DELETE CASCADE,
        FOREIGN KEY (workspace_id, parent_id) REFERENCES messages(workspace_id, id) ON DELETE CASCADE
      );
      CREATE UNIQUE INDEX messages_chat_seq_idx ON messages (workspace_id, chat_id, seq);

      CREATE TABLE reactions (
        workspace_id uuid NOT NULL,
        message_id uuid NOT NULL,
        member_id uuid NOT NULL,
        emoji varchar(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, message_id, member_id, emoji),
        FOREIGN KEY (workspace_id, message_id) REFERENCES messages(workspace_id, id) ON DELETE CASCADE
      );

      CREATE TABLE favourites (
        workspace_id uuid NOT NULL,
        member_id uuid NOT NULL,
        chat_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, member_id, chat_id),
        FOREIGN KEY (workspace_id, chat_id) REFERENCES chats(workspace_id, id) ON DELETE CASCADE
      );

      CREATE TABLE chat_lists (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        member_id uuid NOT NULL,
        name varchar(80) NOT NULL,
        position integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, id)
      );
      CREATE UNIQUE INDEX chat_lists_name_idx ON chat_lists (workspace_id, member_id, lower(name));

      CREATE TABLE list_chats (
        workspace_id uuid NOT NULL,
        list_id uuid NOT NULL,
        chat_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, list_id, chat_id),
        FOREIGN KEY (workspace_id, list_id) REFERENCES chat_lists(workspace_id, id) ON DELETE CASCADE,
        FOREIGN KEY (workspace_id, chat_id) REFERENCES chats(workspace_id, id) ON DELETE CASCADE
      );

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
    await query('DROP TABLE member_directory, list_chats, chat_lists, favourites, reactions, messages, participants, chats');
  },
};
