import { tenantTable, type AppMigration } from '@wpk/sdk';

const uuid = 'uuid NOT NULL';
const text = "text NOT NULL DEFAULT ''";

/**
 * Competencies and role profiles; the copies of workers and departments; goals, their key
 * results and check-ins (one per delivery and key result: the unique key makes an event-fed
 * key result move once per delivery); review cycles, reviews and peer nominations; 1:1s,
 * feedback requests and praise. Every key and reference leads with `workspace_id`.
 */
export const createGrowth: AppMigration = {
  name: '0001-create-growth',
  async up({ query }) {
    await query(tenantTable('competencies', { columns: { id: uuid, name: 'varchar(200) NOT NULL', description: text, levels: 'jsonb NOT NULL', revision: 'integer NOT NULL DEFAULT 1' }, unique: [['lower(name)']] }));
    await query(tenantTable('profiles', { columns: { id: uuid, name: 'varchar(200) NOT NULL', description: text, expectations: 'jsonb NOT NULL' }, unique: [['lower(name)']] }));
    await query(
      tenantTable('people', {
        columns: { id: uuid, name: 'varchar(200) NOT NULL', member_id: 'uuid', manager_id: 'uuid', department_id: 'uuid', status: 'varchar(20) NOT NULL', revision: 'integer NOT NULL' },
      }),
    );
    await query('CREATE INDEX people_manager_idx ON people (workspace_id, manager_id)');
    await query('CREATE INDEX people_member_idx ON people (workspace_id, member_id)');
    await query(tenantTable('departments', { columns: { id: uuid, name: 'varchar(200) NOT NULL', revision: 'integer NOT NULL' } }));
    await query(
      tenantTable('goals', {
        columns: {
          id: uuid,
          title: 'varchar(200) NOT NULL',
          description: text,
          owner_type: "varchar(20) NOT NULL CHECK (owner_type IN ('member', 'department', 'company'))",
          owner_id: 'uuid',
          parent_id: 'uuid',
          period_start: 'date',
          period_end: 'date',
          status: "varchar(20) NOT NULL CHECK (status IN ('active', 'completed', 'cancelled'))",
          created_by: 'uuid',
          revision: 'integer NOT NULL DEFAULT 1',
        },
        references: { parent_id: { table: 'goals', onDelete: 'no action' } },
      }),
    );
    await query(
      tenantTable('key_results', {
        columns: { id: uuid, goal_id: uuid, position: 'integer NOT NULL', title: 'varchar(200) NOT NULL', start_value: 'double precision NOT NULL', target_value: 'double precision NOT NULL', current_value: 'double precision NOT NULL', unit: "varchar(30) NOT NULL DEFAULT ''", source: 'jsonb' },
        references: { goal_id: { table: 'goals', onDelete: 'cascade' } },
      }),
    );
    await query(
      tenantTable('check_ins', {
        columns: { id: uuid, goal_id: uuid, key_result_id: uuid, value: 'double precision NOT NULL', note: text, member_id: 'uuid', delivery_id: 'varchar(100)' },
        references: { goal_id: { table: 'goals', onDelete: 'cascade' }, key_result_id: { table: 'key_results', onDelete: 'cascade' } },
        unique: [['key_result_id', 'delivery_id']],
      }),
    );
    await query(tenantTable('cycles', { columns: { id: uuid, name: 'varchar(200) NOT NULL', status: 'varchar(20) NOT NULL', weights: 'jsonb NOT NULL', revision: 'integer NOT NULL DEFAULT 1' } }));
    await query(
      tenantTable('reviews', {
        columns: { id: uuid, cycle_id: uuid, worker_id: uuid, position: 'integer NOT NULL', manager_id: 'uuid', self_score: 'double precision', self_comment: text, manager_score: 'double precision', manager_comment: text, calibrated_score: 'double precision', final_score: 'double precision' },
        references: { cycle_id: { table: 'cycles', onDelete: 'cascade' } },
        unique: [['cycle_id', 'worker_id']],
      }),
    );
    await query(
      tenantTable('peer_nominations', {
        columns: { id: uuid, review_id: uuid, peer_id: uuid, status: 'varchar(20) NOT NULL', score: 'double precision', comment: text },
        references: { review_id: { table: 'reviews', onDelete: 'cascade' } },
        unique: [['review_id', 'peer_id']],
      }),
    );
    await query(tenantTable('one_on_ones', { columns: { id: uuid, organizer_id: uuid, attendee_id: uuid, scheduled_on: 'date NOT NULL', agenda: 'jsonb NOT NULL', notes: text, action_items: 'jsonb NOT NULL' } }));
    await query(tenantTable('feedback_requests', { columns: { id: uuid, requester_id: uuid, responder_id: uuid, about_id: uuid, question: 'text NOT NULL', due_on: 'date' } }));
    await query(tenantTable('praise', { columns: { id: uuid, giver_id: uuid, receiver_id: uuid, message: 'text NOT NULL', competency_id: 'uuid' } }));
  },
  async down({ query }) {
    await query('DROP TABLE praise, feedback_requests, one_on_ones, peer_nominations, reviews, cycles, check_ins, key_results, goals, departments, people, profiles, competencies');
  },
};
