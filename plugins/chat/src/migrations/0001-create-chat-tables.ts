import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The Chat app's tables, in its own schema (`app_chat`). The workspace id leads or joins every
 * key (docs/scale-out.md); references between the app's tables carry it. A message's `seq` orders
 * a chat's messages and measures read positions; a deleted message keeps its row (a tombstone).
 * A chat's rows go with the chat (`referencesWorkspace: false`), the chat with its workspace.
 */
export const createChatTables: AppMigration = {
  name: '0001-create-chat-tables',
  async up({ query }) {
    const ofChat = { chat_id: { table: 'chats' } };
    await query(
      tenantTable('chats', {
        columns: {
          id: 'uuid NOT NULL',
          type: "varchar(10) NOT NULL CHECK (type IN ('direct', 'group', 'channel'))",
          name: 'varchar(200)',
          topic: "varchar(1000) NOT NULL DEFAULT ''",
          direct_key: 'varchar(80)',
          creator_id: 'uuid NOT NULL',
          last_seq: 'bigint NOT NULL DEFAULT 0',
          last_message_at: 'timestamptz',
        },
      }),
    );
    await query('CREATE UNIQUE INDEX chats_direct_key_idx ON chats (workspace_id, direct_key) WHERE direct_key IS NOT NULL');
    await query(
      tenantTable('participants', {
        columns: {
          chat_id: 'uuid NOT NULL',
          member_id: 'uuid NOT NULL',
          role: "varchar(10) NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'member'))",
          muted: 'boolean NOT NULL DEFAULT false',
          last_read_seq: 'bigint NOT NULL DEFAULT 0',
        },
        primaryKey: ['chat_id', 'member_id'],
        references: ofChat,
        referencesWorkspace: false,
      }),
    );
    await query('CREATE INDEX participants_member_idx ON participants (workspace_id, member_id)');
    await query(
      tenantTable('messages', {
        columns: {
          id: 'uuid NOT NULL',
          chat_id: 'uuid NOT NULL',
          seq: 'bigint NOT NULL',
          sender_id: 'uuid NOT NULL',
          body: "text NOT NULL DEFAULT ''",
          parent_id: 'uuid',
          reply_count: 'integer NOT NULL DEFAULT 0',
          attachment: 'jsonb',
          mentions: "jsonb NOT NULL DEFAULT '[]'",
          edited_at: 'timestamptz',
          deleted_at: 'timestamptz',
        },
        references: { ...ofChat, parent_id: { table: 'messages' } },
        referencesWorkspace: false,
      }),
    );
    await query('CREATE UNIQUE INDEX messages_chat_seq_idx ON messages (workspace_id, chat_id, seq)');
    await query(
      tenantTable('reactions', {
        columns: { message_id: 'uuid NOT NULL', member_id: 'uuid NOT NULL', emoji: 'varchar(64) NOT NULL' },
        primaryKey: ['message_id', 'member_id', 'emoji'],
        references: { message_id: { table: 'messages' } },
        referencesWorkspace: false,
      }),
    );
    await query(tenantTable('favourites', { columns: { member_id: 'uuid NOT NULL', chat_id: 'uuid NOT NULL' }, primaryKey: ['member_id', 'chat_id'], references: ofChat, referencesWorkspace: false }));
    await query(tenantTable('chat_lists', { columns: { id: 'uuid NOT NULL', member_id: 'uuid NOT NULL', name: 'varchar(80) NOT NULL', position: 'integer NOT NULL DEFAULT 0' } }));
    await query('CREATE UNIQUE INDEX chat_lists_name_idx ON chat_lists (workspace_id, member_id, lower(name))');
    await query(
      tenantTable('list_chats', {
        columns: { list_id: 'uuid NOT NULL', chat_id: 'uuid NOT NULL' },
        primaryKey: ['list_id', 'chat_id'],
        references: { list_id: { table: 'chat_lists' }, ...ofChat },
        referencesWorkspace: false,
      }),
    );
    await query(tenantTable('member_directory', { columns: { member_id: 'uuid NOT NULL', removed_at: 'timestamptz', removed_by: 'uuid' }, primaryKey: ['member_id'] }));
  },
  async down({ query }) {
    await query('DROP TABLE member_directory, list_chats, chat_lists, favourites, reactions, messages, participants, chats');
  },
};
