import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The Rooms app's tables, in its own schema (`app_rooms`), keyed by workspace (docs/scale-out.md).
 * A room's name is unique in its workspace, whatever the case.
 */
export const createRoomsTables: AppMigration = {
  name: '0001-create-rooms-tables',
  async up({ query }) {
    await query(
      tenantTable('rooms', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(100) NOT NULL',
          description: "varchar(1000) NOT NULL DEFAULT ''",
          visibility: "varchar(10) NOT NULL DEFAULT 'workspace' CHECK (visibility IN ('workspace', 'private'))",
          locked: 'boolean NOT NULL DEFAULT false',
          max_participants: 'integer NOT NULL CHECK (max_participants BETWEEN 2 AND 100)',
          creator_id: 'uuid NOT NULL',
        },
        unique: [['lower(name)']],
      }),
    );
    await query(
      tenantTable('room_members', {
        columns: {
          room_id: 'uuid NOT NULL',
          member_id: 'uuid NOT NULL',
          role: "varchar(10) NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'moderator', 'member'))",
          added_by: 'uuid',
        },
        primaryKey: ['room_id', 'member_id'],
        references: { room_id: { table: 'rooms' } },
      }),
    );
    await query(
      tenantTable('presences', {
        columns: { room_id: 'uuid NOT NULL', member_id: 'uuid NOT NULL', joined_at: 'timestamptz NOT NULL' },
        primaryKey: ['room_id', 'member_id'],
        references: { room_id: { table: 'rooms' } },
      }),
    );
    await query('CREATE INDEX room_members_member_idx ON room_members (workspace_id, member_id); CREATE INDEX presences_member_idx ON presences (workspace_id, member_id)');
    await query(tenantTable('member_directory', { columns: { member_id: 'uuid NOT NULL', removed_at: 'timestamptz' }, primaryKey: ['member_id'] }));
  },
  async down({ query }) {
    await query('DROP TABLE member_directory, presences, room_members, rooms');
  },
};
