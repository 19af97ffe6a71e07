/**
 * Distribution by workspace: the rules every table of the platform and of every app must follow so
 * that a distributed PostgreSQL (Citus) can shard the database by `workspace_id`, the check that
 * reads them off a migrated database's catalog, and the plan of commands that distributes it.
 * See docs/scale-out.md.
 *
 * A table is a tenant table (distributed by `workspace_id`) unless a list names it: a reference
 * table (a copy on every node: small, the same for every tenant) or a coordinator-only table
 * (read before any workspace is known, or bookkeeping). Each listed table carries its reason.
 */

/** The declared exceptions: `schema.table` (or `*.table` for every schema) → the reason. */
export interface DistributionLists {
  /** Copied whole to every node. */
  reference: Readonly<Record<string, string>>;
  /** Kept on the coordinator only; tenant tables never reference them. */
  coordinator: Readonly<Record<string, string>>;
  /** Triggers allowed on a tenant table: `schema.table.trigger` → the reason. */
  triggers?: Readonly<Record<string, string>>;
  /** Identity or sequence-fed columns allowed on a tenant table: `schema.table.column` → the reason. */
  identity?: Readonly<Record<string, string>>;
}

/** Runs one read-only SQL statement and returns its rows (a Sequelize `query` with `QueryTypes.SELECT`, a `pg` client's rows…). */
export type CatalogQuery = (sql: string) => Promise<Array<Record<string, unknown>>>;

/** A foreign key, as the catalog gives it. */
export interface CatalogForeignKey {
  name: string;
  columns: string[];
  target: string;
  targetColumns: string[];
  /** `a` no action, `r` restrict, `c` cascade, `n` set null, `d` set default. */
  onDelete: string;
  onUpdate: string;
}

/** One table of the catalog, as far as distribution cares. */
export interface CatalogTable {
  /** `schema.table`. */
  name: string;
  workspaceColumn: { type: string; notNull: boolean } | null;
  /** Primary key and unique indexes: their name, key columns (null for an expression) and whether it is the primary key. */
  uniques: Array<{ name: string; columns: Array<string | null>; primary: boolean }>;
  foreignKeys: CatalogForeignKey[];
  triggers: string[];
  /** Identity columns and columns fed by a sequence (`serial`, `nextval(...)` default). */
  identity: string[];
}

/** What the check found wrong with one table. */
export interface DistributionProblem {
  table: string;
  problem: string;
}

/** The schemas the rules cover: the platform's, first-party apps' (`app_*`) and third-party apps' (`ext_*`). */
export const DISTRIBUTED_SCHEMAS = /^(platform|app_[a-z0-9_]+|ext_[a-z0-9_]+)$/;

const listed = (list: Readonly<Record<string, string>> | undefined, table: string): string | undefined => {
  if (!list) return undefined;
  return list[table] ?? list[`*.${table.slice(table.indexOf('.') + 1)}`];
};

/** Reads what the rules need from the catalog of every schema the rules cover. */
export async function readDistributionCatalog(query: CatalogQuery): Promise<CatalogTable[]> {
  const schemaFilter = `n.nspname ~ '${DISTRIBUTED_SCHEMAS.source}'`;
  const tables = await query(`
    SELECT c.oid::bigint AS oid, n.nspname || '.' || c.relname AS name
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND ${schemaFilter}
     ORDER BY 2`);
  const columns = await query(`
    SELECT a.attrelid::bigint AS oid, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
           a.attidentity <> '' OR coalesce(pg_get_expr(d.adbin, d.adrelid) LIKE 'nextval(%', false) AS identity
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p') AND ${schemaFilter}
     ORDER BY 1, a.attnum`);
  const indexes = await query(`
    SELECT i.indrelid::bigint AS oid, ic.relname AS name, i.indisprimary AS primary,
           ARRAY(SELECT CASE WHEN k.attnum = 0 THEN NULL ELSE a.attname::text END
                   FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
                   LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                  WHERE k.position <= i.indnkeyatts
                  ORDER BY k.position) AS columns
      FROM pg_index i
      JOIN pg_class ic ON ic.oid = i.indexrelid
      JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE i.indisunique AND ${schemaFilter}
     ORDER BY 1, 2`);
  const foreignKeys = await query(`
    SELECT k.conrelid::bigint AS oid, k.conname AS name,
           ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY AS x(attnum, position)
                   JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = x.attnum ORDER BY x.position) AS columns,
           tn.nspname || '.' || t.relname AS target,
           ARRAY(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY AS x(attnum, position)
                   JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = x.attnum ORDER BY x.position) AS target_columns,
           k.confdeltype AS on_delete, k.confupdtype AS on_update
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_class t ON t.oid = k.confrelid JOIN pg_namespace tn ON tn.oid = t.relnamespace
     WHERE k.contype = 'f' AND ${schemaFilter}
     ORDER BY 1, 2`);
  const triggers = await query(`
    SELECT g.tgrelid::bigint AS oid, g.tgname AS name
      FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE NOT g.tgisinternal AND ${schemaFilter}
     ORDER BY 1, 2`);
  const byOid = new Map<string, CatalogTable>();
  for (const row of tables) byOid.set(String(row.oid), { name: String(row.name), workspaceColumn: null, uniques: [], foreignKeys: [], triggers: [], identity: [] });
  const array = (value: unknown): Array<string | null> => (Array.isArray(value) ? value : parsePgArray(String(value)));
  for (const row of columns) {
    const table = byOid.get(String(row.oid));
    if (!table) continue;
    if (row.name === 'workspace_id') table.workspaceColumn = { type: String(row.type), notNull: row.not_null === true };
    if (row.identity === true) table.identity.push(String(row.name));
  }
  for (const row of indexes) byOid.get(String(row.oid))?.uniques.push({ name: String(row.name), columns: array(row.columns), primary: row.primary === true });
  for (const row of foreignKeys) {
    byOid.get(String(row.oid))?.foreignKeys.push({
      name: String(row.name),
      columns: array(row.columns).map(String),
      target: String(row.target),
      targetColumns: array(row.target_columns).map(String),
      onDelete: String(row.on_delete),
      onUpdate: String(row.on_update),
    });
  }
  for (const row of triggers) byOid.get(String(row.oid))?.triggers.push(String(row.name));
  return [...byOid.values()];
}

/** A `{a,b,NULL}` text array (drivers that do not parse arrays). */
function parsePgArray(text: string): Array<string | null> {
  const inner = text.replace(/^\{|\}$/g, '');
  if (inner === '') return [];
  return inner.split(',').map((item) => (item === 'NULL' ? null : item.replace(/^"|"$/g, '')));
}

const ACTIONS: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };

/** The kind of each table under the lists. */
export function tableKind(table: string, lists: DistributionLists): 'reference' | 'coordinator' | 'distributed' {
  if (listed(lists.reference, table) !== undefined) return 'reference';
  if (listed(lists.coordinator, table) !== undefined) return 'coordinator';
  return 'distributed';
}

/**
 * Every breach of the rules (empty when the schema can be distributed by workspace):
 * - a tenant table has `workspace_id uuid NOT NULL`; its primary key and every unique index
 *   include it; every foreign key to another tenant table includes it at the same position;
 * - no foreign key of a tenant table is `ON DELETE SET NULL` / `SET DEFAULT` or has an
 *   `ON UPDATE` action other than NO ACTION / RESTRICT, and none points at a coordinator table;
 * - no reference or coordinator table points at a tenant table;
 * - no trigger or identity (sequence-fed) column on a tenant table unless listed with a reason;
 * - every list entry names a table, trigger or column that exists, and gives a reason (an entry
 *   of a schema the database does not have, an app not loaded, is not judged).
 */
export function checkDistribution(catalog: CatalogTable[], lists: DistributionLists): DistributionProblem[] {
  const problems: DistributionProblem[] = [];
  const tables = new Map(catalog.map((table) => [table.name, table]));
  const add = (table: string, problem: string) => problems.push({ table, problem });
  for (const table of catalog) {
    const kind = tableKind(table.name, lists);
    if (kind !== 'distributed') {
      for (const fk of table.foreignKeys) {
        if (tables.has(fk.target) && tableKind(fk.target, lists) === 'distributed') {
          add(table.name, `foreign key ${fk.name}: a ${kind} table cannot reference the tenant table ${fk.target}`);
        }
      }
      continue;
    }
    const column = table.workspaceColumn;
    if (!column) {
      add(table.name, 'has no workspace_id column (a tenant table needs workspace_id uuid NOT NULL; or list the table as reference or coordinator-only, with the reason)');
      continue;
    }
    if (column.type !== 'uuid' || !column.notNull) add(table.name, `workspace_id must be uuid NOT NULL (it is ${column.type}${column.notNull ? ' NOT NULL' : ', nullable'})`);
    for (const unique of table.uniques) {
      if (!unique.columns.includes('workspace_id')) {
        const what = unique.primary ? 'primary key' : 'unique index';
        add(table.name, `${what} ${unique.name} (${unique.columns.map((name) => name ?? '<expression>').join(', ')}) must include workspace_id`);
      }
    }
    for (const fk of table.foreignKeys) {
      const targetKind = tableKind(fk.target, lists);
      if (targetKind === 'coordinator') add(table.name, `foreign key ${fk.name} points at the coordinator-only table ${fk.target}`);
      if (targetKind === 'distributed') {
        const at = fk.columns.indexOf('workspace_id');
        if (at < 0 || fk.targetColumns[at] !== 'workspace_id') {
          add(table.name, `foreign key ${fk.name} (${fk.columns.join(', ')}) → ${fk.target} (${fk.targetColumns.join(', ')}) must carry workspace_id at the same position on both sides`);
        }
      }
      if (fk.onDelete === 'n' || fk.onDelete === 'd') add(table.name, `foreign key ${fk.name} is ON DELETE ${ACTIONS[fk.onDelete]}: clear the reference in code instead`);
      if (fk.onUpdate !== 'a' && fk.onUpdate !== 'r') add(table.name, `foreign key ${fk.name} is ON UPDATE ${ACTIONS[fk.onUpdate] ?? fk.onUpdate}`);
    }
    for (const trigger of table.triggers) {
      if (!lists.triggers?.[`${table.name}.${trigger}`]) add(table.name, `trigger ${trigger} is not listed with a reason`);
    }
    for (const name of table.identity) {
      if (!lists.identity?.[`${table.name}.${name}`]) add(table.name, `identity or sequence column ${name} is not listed with a reason`);
    }
  }
  const entries: Array<[string, Readonly<Record<string, string>> | undefined, (key: string) => boolean]> = [
    ['reference', lists.reference, (key) => (key.startsWith('*.') ? catalog.some((table) => table.name.endsWith(key.slice(1))) : tables.has(key))],
    ['coordinator', lists.coordinator, (key) => (key.startsWith('*.') ? catalog.some((table) => table.name.endsWith(key.slice(1))) : tables.has(key))],
    ['triggers', lists.triggers, (key) => catalog.some((table) => table.triggers.some((trigger) => `${table.name}.${trigger}` === key))],
    ['identity', lists.identity, (key) => catalog.some((table) => table.identity.some((name) => `${table.name}.${name}` === key))],
  ];
  // An entry of a schema the database does not have belongs to an app not loaded here (the
  // lists name every first-party app's exceptions): nothing of it to judge.
  const schemas = new Set(catalog.map((table) => table.name.split('.')[0]));
  for (const [list, entriesOf, exists] of entries) {
    for (const [key, reason] of Object.entries(entriesOf ?? {})) {
      const schema = key.split('.')[0]!;
      if (schema !== '*' && !schemas.has(schema)) continue;
      if (!reason || reason.trim() === '') add(key, `the ${list} list gives no reason for it`);
      if (!exists(key)) add(key, `the ${list} list names it, but the database has no such ${list === 'triggers' ? 'trigger' : list === 'identity' ? 'column' : 'table'}`);
    }
  }
  return problems;
}

/** Code-point order (the same on every machine, whatever its locale). */
const byName = (a: CatalogTable, b: CatalogTable) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Tables ordered so that every table comes after the tables it references (then `first`, the platform's, by name). */
function referencedFirst(tables: CatalogTable[], first?: string): CatalogTable[] {
  const rank = (table: CatalogTable) => (table.name === first ? 0 : table.name.startsWith('platform.') ? 1 : 2);
  const pending = new Map(tables.map((table) => [table.name, table]));
  const ordered: CatalogTable[] = [];
  while (pending.size > 0) {
    const ready = [...pending.values()].filter((table) => table.foreignKeys.every((fk) => fk.target === table.name || !pending.has(fk.target)));
    const next = ready.length > 0 ? ready : [...pending.values()]; // a cycle: keep name order
    next.sort((a, b) => rank(a) - rank(b) || byName(a, b));
    ordered.push(next[0]);
    pending.delete(next[0].name);
  }
  return ordered;
}

/**
 * The Citus commands that distribute a migrated database, one per line: reference tables first
 * (in reference order), then every tenant table by `workspace_id`, all co-located with the first
 * one (`anchor` when given and ready first, else the first in order) so that joins and foreign
 * keys within a workspace stay on one node. Coordinator-only tables get a comment: they stay
 * where they are.
 */
export function distributionPlan(catalog: CatalogTable[], lists: DistributionLists, anchor?: string): string[] {
  const lines: string[] = [];
  const quote = (name: string) => `'${name.replace(/'/g, "''")}'`;
  const reference = referencedFirst(catalog.filter((table) => tableKind(table.name, lists) === 'reference'));
  const distributed = referencedFirst(catalog.filter((table) => tableKind(table.name, lists) === 'distributed'), anchor);
  const coordinator = catalog.filter((table) => tableKind(table.name, lists) === 'coordinator').sort(byName);
  lines.push('-- Reference tables: a copy on every node.');
  for (const table of reference) lines.push(`SELECT create_reference_table(${quote(table.name)});`);
  lines.push('-- Tenant tables: sharded by workspace_id, co-located.');
  const colocateWith = distributed[0]?.name;
  for (const table of distributed) {
    lines.push(
      table.name === colocateWith
        ? `SELECT create_distributed_table(${quote(table.name)}, 'workspace_id');`
        : `SELECT create_distributed_table(${quote(table.name)}, 'workspace_id', colocate_with => ${quote(colocateWith!)});`,
    );
  }
  lines.push('-- Coordinator-only tables: left as they are.');
  for (const table of coordinator) {
    const onReference = table.foreignKeys.some((fk) => tableKind(fk.target, lists) === 'reference');
    lines.push(`-- ${table.name}${onReference ? ' (references a reference table: Citus keeps it as a Citus local table)' : ''}`);
  }
  return lines;
}
