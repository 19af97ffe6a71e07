import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * Polls on posts: a post's poll (its options, closing time, whether results stay hidden until it
 * closes, and the running count per option, kept under the poll's row lock) and the votes, one per
 * member and poll.
 */
export const createPolls: AppMigration = {
  name: '0002-polls',
  async up({ query }) {
    await query(
      tenantTable('polls', {
        columns: {
          id: 'uuid NOT NULL',
          post_id: 'uuid NOT NULL',
          options: "jsonb NOT NULL CHECK (jsonb_typeof(options) = 'array' AND jsonb_array_length(options) BETWEEN 2 AND 20)",
          counts: "jsonb NOT NULL CHECK (jsonb_typeof(counts) = 'array')",
          closes_at: 'timestamptz NOT NULL',
          hide_results: 'boolean NOT NULL DEFAULT false',
          closed_at: 'timestamptz',
        },
        references: { post_id: { table: 'posts', onDelete: 'cascade' } },
        unique: [['post_id']],
      }),
    );
    await query(
      tenantTable('votes', {
        columns: {
          id: 'uuid NOT NULL',
          poll_id: 'uuid NOT NULL',
          member_id: 'uuid NOT NULL',
          option: 'integer NOT NULL CHECK (option >= 0)',
        },
        references: { poll_id: { table: 'polls', onDelete: 'cascade' } },
        unique: [['poll_id', 'member_id']],
      }),
    );
  },
  async down({ query }) {
    for (const table of ['votes', 'polls']) await query(`DROP TABLE ${table}`);
  },
};
