import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The Feeds app's tables in its own schema (`app_feeds`), keyed by workspace: channels, their
 * posts with every revision of a post's text, comments, reactions (one per member, post and
 * emoji) and acknowledgements of announcements (one per member and post).
 */
export const createFeedsTables: AppMigration = {
  name: '0001-create-feeds-tables',
  async up({ query }) {
    await query(
      tenantTable('channels', {
        columns: {
          id: 'uuid NOT NULL',
          name: 'varchar(200) NOT NULL',
          kind: "varchar(20) NOT NULL CHECK (kind IN ('company', 'department', 'topic'))",
          department_mrn: 'varchar(100)',
          description: 'varchar(1000)',
          post_policy: "varchar(20) NOT NULL CHECK (post_policy IN ('everyone', 'admins', 'roles'))",
          post_roles: "jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(post_roles) = 'array')",
          created_by: 'uuid NOT NULL',
        },
        unique: [['lower(name)']],
      }),
    );
    await query(
      tenantTable('posts', {
        columns: {
          id: 'uuid NOT NULL',
          channel_id: 'uuid NOT NULL',
          author_id: 'uuid NOT NULL',
          title: 'varchar(200)',
          body: 'text NOT NULL',
          status: "varchar(20) NOT NULL CHECK (status IN ('draft', 'scheduled', 'published', 'archived', 'removed'))",
          requires_acknowledgement: 'boolean NOT NULL DEFAULT false',
          publish_at: 'timestamptz',
          published_at: 'timestamptz',
          removed_reason: 'varchar(500)',
          removed_by: 'uuid',
          pinned_until: 'timestamptz',
          revision: 'integer NOT NULL DEFAULT 1 CHECK (revision >= 1)',
        },
        references: { channel_id: { table: 'channels' } },
      }),
    );
    await query('CREATE INDEX posts_timeline_idx ON posts (workspace_id, status, published_at, id)');
    await query('CREATE INDEX posts_channel_idx ON posts (workspace_id, channel_id, created_at, id)');
    await query(
      tenantTable('revisions', {
        columns: {
          id: 'uuid NOT NULL',
          post_id: 'uuid NOT NULL',
          revision: 'integer NOT NULL',
          title: 'varchar(200)',
          body: 'text NOT NULL',
          edited_by: 'uuid NOT NULL',
        },
        references: { post_id: { table: 'posts', onDelete: 'cascade' } },
        unique: [['post_id', 'revision']],
      }),
    );
    await query(
      tenantTable('comments', {
        columns: {
          id: 'uuid NOT NULL',
          post_id: 'uuid NOT NULL',
          author_id: 'uuid NOT NULL',
          body: 'text NOT NULL',
        },
        references: { post_id: { table: 'posts', onDelete: 'cascade' } },
      }),
    );
    await query('CREATE INDEX comments_post_idx ON comments (workspace_id, post_id, created_at, id)');
    await query(
      tenantTable('reactions', {
        columns: {
          id: 'uuid NOT NULL',
          post_id: 'uuid NOT NULL',
          member_id: 'uuid NOT NULL',
          emoji: 'varchar(32) NOT NULL',
        },
        references: { post_id: { table: 'posts', onDelete: 'cascade' } },
        unique: [['post_id', 'member_id', 'emoji']],
      }),
    );
    await query(
      tenantTable('acknowledgements', {
        columns: {
          id: 'uuid NOT NULL',
          post_id: 'uuid NOT NULL',
          member_id: 'uuid NOT NULL',
        },
        references: { post_id: { table: 'posts', onDelete: 'cascade' } },
        unique: [['post_id', 'member_id']],
      }),
    );
  },
  async down({ query }) {
    for (const table of ['acknowledgements', 'reactions', 'comments', 'revisions', 'posts', 'channels']) await query(`DROP TABLE ${table}`);
  },
};
