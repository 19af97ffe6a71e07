import test from 'ava';
import { tenantTable } from './tenant-table.js';

test('tenantTable keys the table by workspace: primary key, unique indexes and references', (t) => {
  t.is(
    tenantTable('items', {
      columns: { id: 'uuid NOT NULL', title: 'varchar(200) NOT NULL', list_id: 'uuid' },
      references: { list_id: { table: 'lists', onDelete: 'restrict' } },
      unique: [['list_id', 'lower(title)']],
    }),
    `CREATE TABLE items (
  workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
  id uuid NOT NULL,
  title varchar(200) NOT NULL,
  list_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, list_id) REFERENCES lists (workspace_id, id) ON DELETE RESTRICT
);
CREATE UNIQUE INDEX items_unique_1 ON items (workspace_id, list_id, lower(title));`,
  );
});

test('tenantTable without referencesWorkspace: the rows go with their parent row, through a cascading reference', (t) => {
  t.is(
    tenantTable('votes', { columns: { id: 'uuid NOT NULL', session_id: 'uuid NOT NULL' }, references: { session_id: { table: 'sessions' } }, referencesWorkspace: false, timestamps: false }),
    `CREATE TABLE votes (
  workspace_id uuid NOT NULL,
  id uuid NOT NULL,
  session_id uuid NOT NULL,
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, session_id) REFERENCES sessions (workspace_id, id) ON DELETE CASCADE
);`,
  );
  t.throws(() => tenantTable('a', { columns: { id: 'uuid', b: 'uuid' }, references: { b: { table: 'b', onDelete: 'restrict' } }, referencesWorkspace: false }), {
    message: 'tenantTable(a): without referencesWorkspace, a cascading reference must take its rows when the workspace goes',
  });
  t.throws(() => tenantTable('a', { columns: { id: 'uuid' }, referencesWorkspace: false }), { message: 'tenantTable(a): without referencesWorkspace, a cascading reference must take its rows when the workspace goes' });
});

test('tenantTable refuses what would break distribution: workspace_id declared, SET NULL, an inline reference, a key column not declared', (t) => {
  t.throws(() => tenantTable('a', { columns: { workspace_id: 'uuid', id: 'uuid' } }), { message: 'tenantTable(a): workspace_id is added for you; do not declare it' });
  t.throws(() => tenantTable('a', { columns: { id: 'uuid', b: 'uuid REFERENCES b(id) ON DELETE SET NULL' } }), { message: "tenantTable(a): declare b's reference in references, not in its type" });
  t.throws(() => tenantTable('a', { columns: { id: 'uuid', b: 'uuid' }, references: { b: { table: 'b', onDelete: 'set null' as never } } }), { message: 'tenantTable(a): b may only be ON DELETE cascade, restrict or no action' });
  t.throws(() => tenantTable('a', { columns: { code: 'text' } }), { message: 'tenantTable(a): primary key column id is not among the columns' });
  t.throws(() => tenantTable('A', { columns: { id: 'uuid' } }), { message: 'tenantTable: table "A" must be lowercase letters, digits and _' });
});
