import type { AppMigration } from './define-app.js';

/**
 * `tenantTable(...)`: the SQL of an app table keyed the way the platform can shard by workspace
 * (docs/scale-out.md) without the app author having to know how. Use it in a migration:
 *
 * ```ts
 * await query(tenantTable('items', {
 *   columns: { id: 'uuid NOT NULL', title: 'varchar(200) NOT NULL', list_id: 'uuid' },
 *   references: { list_id: { table: 'lists' } },
 *   unique: [['lower(title)']],
 * }));
 * ```
 *
 * gives `workspace_id uuid NOT NULL` (cascading from the platform's workspace), the primary key
 * `(workspace_id, id)`, each unique index led by `workspace_id`, and each reference to another
 * table of the app as a composite foreign key `(workspace_id, list_id) → lists (workspace_id, id)`.
 * A reference is `ON DELETE CASCADE` or `RESTRICT`/`NO ACTION`, never `SET NULL` (a distributed
 * database refuses it: clear the column in the code that deletes, in the same transaction).
 */
export interface TenantTableOptions {
  /** Column name → SQL type and constraints (`'uuid NOT NULL'`, `"varchar(200) NOT NULL DEFAULT ''"`); never `workspace_id`. */
  columns: Record<string, string>;
  /** The key within the workspace (default `['id']`); `workspace_id` leads it. */
  primaryKey?: string[];
  /** Unique indexes within the workspace: each a list of columns or expressions (`['lower(name)']`). */
  unique?: string[][];
  /** Column → the app table it references (by that table's `id`, unless `column` says otherwise). */
  references?: Record<string, { table: string; column?: string; onDelete?: 'cascade' | 'restrict' | 'no action' }>;
  /** Adds `created_at` and `updated_at` (default true). */
  timestamps?: boolean;
  /**
   * Whether `workspace_id` itself references the platform's workspace (default true). False for a
   * table whose rows go with a parent row of the app (a cascading reference), as a few first-party
   * tables were written: their schema stays exactly as shipped.
   */
  referencesWorkspace?: boolean;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function identifier(name: string, what: string): string {
  if (!IDENTIFIER.test(name)) throw new TypeError(`tenantTable: ${what} "${name}" must be lowercase letters, digits and _`);
  return name;
}

/** The SQL creating one tenant table of the app and its unique indexes (run it with the migration's `query`). */
export function tenantTable(name: string, options: TenantTableOptions): string {
  identifier(name, 'table');
  const columns = Object.entries(options.columns);
  if (columns.length === 0) throw new TypeError(`tenantTable(${name}): columns must name at least one column`);
  if ('workspace_id' in options.columns) throw new TypeError(`tenantTable(${name}): workspace_id is added for you; do not declare it`);
  const referencesWorkspace = options.referencesWorkspace ?? true;
  if (!referencesWorkspace && !Object.values(options.references ?? {}).some((reference) => (reference.onDelete ?? 'cascade') === 'cascade')) {
    throw new TypeError(`tenantTable(${name}): without referencesWorkspace, a cascading reference must take its rows when the workspace goes`);
  }
  const lines = [referencesWorkspace ? 'workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE' : 'workspace_id uuid NOT NULL'];
  for (const [column, type] of columns) {
    identifier(column, 'column');
    if (/\bSET\s+(NULL|DEFAULT)\b/i.test(type) || /\bREFERENCES\b/i.test(type)) throw new TypeError(`tenantTable(${name}): declare ${column}'s reference in references, not in its type`);
    lines.push(`${column} ${type}`);
  }
  if (options.timestamps ?? true) lines.push('created_at timestamptz NOT NULL DEFAULT now()', 'updated_at timestamptz NOT NULL DEFAULT now()');
  const key = options.primaryKey ?? ['id'];
  for (const column of key) {
    if (!(column in options.columns)) throw new TypeError(`tenantTable(${name}): primary key column ${column} is not among the columns`);
  }
  lines.push(`PRIMARY KEY (workspace_id, ${key.join(', ')})`);
  for (const [column, reference] of Object.entries(options.references ?? {})) {
    if (!(column in options.columns)) throw new TypeError(`tenantTable(${name}): reference column ${column} is not among the columns`);
    const onDelete = (reference.onDelete ?? 'cascade').toUpperCase();
    if (!['CASCADE', 'RESTRICT', 'NO ACTION'].includes(onDelete)) throw new TypeError(`tenantTable(${name}): ${column} may only be ON DELETE cascade, restrict or no action`);
    lines.push(`FOREIGN KEY (workspace_id, ${column}) REFERENCES ${identifier(reference.table, 'table')} (workspace_id, ${identifier(reference.column ?? 'id', 'column')}) ON DELETE ${onDelete}`);
  }
  const statements = [`CREATE TABLE ${name} (\n  ${lines.join(',\n  ')}\n)`];
  (options.unique ?? []).forEach((parts, index) => {
    if (parts.length === 0) throw new TypeError(`tenantTable(${name}): unique index ${index + 1} names no column`);
    statements.push(`CREATE UNIQUE INDEX ${name}_unique_${index + 1} ON ${name} (workspace_id, ${parts.join(', ')})`);
  });
  return `${statements.join(';\n')};`;
}

/**
 * A migration that drops one of the app's tenant tables; its down re-creates the table empty with
 * `recreate` (the options it was created with):
 *
 * ```ts
 * export const dropOldCopy = dropTenantTable('0004-drop-old-copy', 'old_copy', { columns: { member_id: 'uuid NOT NULL' }, primaryKey: ['member_id'] });
 * ```
 */
export function dropTenantTable(migration: string, name: string, recreate: TenantTableOptions): AppMigration {
  identifier(name, 'table');
  return {
    name: migration,
    async up({ query }) {
      await query(`DROP TABLE ${name}`);
    },
    async down({ query }) {
      await query(tenantTable(name, recreate));
    },
  };
}
