import type { AppMigration } from '@wpk/sdk';

/** The app's schema, one migration at a time. Unqualified names land in `ext_acme_hello`. */
export const migrations: AppMigration[] = [
  {
    name: '0001-create-greetings',
    async up({ query }) {
      await query(`CREATE TABLE greetings (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        sender_id uuid NOT NULL,
        sender_name varchar(200) NOT NULL,
        recipient_id uuid,
        text varchar(300) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
      await query('CREATE INDEX greetings_workspace_idx ON greetings (workspace_id, created_at DESC)');
    },
    async down({ query }) {
      await query('DROP TABLE greetings');
    },
  },
];
