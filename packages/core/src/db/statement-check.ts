import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import { findSourceMap } from 'node:module';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

/**
 * The query-shape check of the test suites: records every statement this process sends through
 * `pg` (Sequelize, the broker's pools, pg-boss: all of them go through `pg.Client`), and reports
 * each access to a tenant table (a table with a `workspace_id` column) that does not constrain
 * `workspace_id`. On a database distributed by workspace (Citus) such a statement reaches every
 * shard, or is refused; here it fails the test file that sent it (see `docs/scale-out.md`).
 *
 * What counts as constrained, per occurrence of a tenant table in a statement:
 * - SELECT / UPDATE / DELETE: a conjunct of the WHERE clause or of a join's ON clause compares
 *   that table's `workspace_id` (`=`, `IN`, `= ANY`, or inside a row comparison) with anything:
 *   a value, a parameter, or the `workspace_id` of another table (a co-located join);
 * - INSERT: the column list names `workspace_id` (the row carries its tenant).
 * Statements that span tenants on purpose are declared in `CROSS_TENANT_STATEMENTS`, each with its
 * reason; statements sent while `during()` runs (migrations) are not checked. Statements sent by
 * test code itself (a `.test.ts` file, one under `test/helpers/`, or the `@wpk/testing` harness is
 * the first frame of ours on the stack) are not checked either: a test may look at the whole database.
 *
 * The parser is injected (`libpg-query`'s `parseSync`, the real PostgreSQL parser), so the
 * runtime itself carries no parser; only the test suites load one.
 */

/** A statement that legitimately spans tenants, with the reason it may. */
export interface CrossTenantStatement {
  /** A short name, shown when it matches. */
  name: string;
  /** Why this statement may read or write across workspaces. */
  reason: string;
  /** Matches the statement's text (whitespace collapsed to single spaces). */
  match: RegExp;
  /** Set while another branch changes the statement (perf's access path, scale's search dictionary): to be removed when it lands. */
  temporary?: string;
}

/** One access to a tenant table with no `workspace_id` predicate. */
export interface StatementViolation {
  table: string;
  sql: string;
  /** The first frames of ours on the stack that sent it (`file:line < file:line`), when known. */
  origin: string | null;
  /** How often this exact statement was sent. */
  count: number;
}

/** The parse tree of `libpg-query` (`parseSync`): untyped JSON, walked by node name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parser's output has no types to name
type Node = Record<string, any>;
export type SqlParser = (sql: string) => { stmts: Array<{ stmt: Node }> };

const origins = new AsyncLocalStorage<string>();
const exempt = new AsyncLocalStorage<string>();

const SOURCE_FILE = /\.[cm]?[jt]s$/;

/**
 * The caller's call sites as V8 keeps them, without making text of them: formatting a stack
 * through the source maps the tests run with, for every statement sent, was ~8 % of a test
 * process's CPU (Tasks' main file, 2026-12-03), and only a violation's origin is ever read.
 */
function callSites(): NodeJS.CallSite[] {
  const prepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  Error.prepareStackTrace = (_error, sites) => sites;
  Error.stackTraceLimit = 40;
  try {
    const holder: { stack?: NodeJS.CallSite[] } = {};
    Error.captureStackTrace(holder, callSites);
    return holder.stack ?? [];
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
}

/**
 * Where a statement came from: the first frames outside node_modules and outside this file (up to
 * 3 distinct ones, innermost first, joined by ' < '), as `file:line:column` of the code that ran
 * (the transformed TypeScript); `shownOrigin` names the TypeScript lines. Null when none.
 */
function originOf(sites: NodeJS.CallSite[]): string | null {
  const frames: string[] = [];
  for (const site of sites) {
    const file = site.getFileName()?.replace(/^file:\/\//, '');
    if (!file?.startsWith('/') || !SOURCE_FILE.test(file) || file.includes('/node_modules/') || file.includes('statement-check')) continue;
    const frame = `${file}:${site.getLineNumber()}:${site.getColumnNumber()}`;
    if (!frames.includes(frame)) frames.push(frame);
    if (frames.length === 3) break;
  }
  return frames.length > 0 ? frames.join(' < ') : null;
}

/** An origin as a reader wants it: `file:line` of the TypeScript (through the source map, when the module has one), distinct frames. */
function shownOrigin(origin: string | null): string | null {
  if (origin === null) return null;
  const frames: string[] = [];
  for (const frame of origin.split(' < ')) {
    const [, file, line, column] = /^(.*):(\d+):(\d+)$/.exec(frame) ?? [frame, frame, '0', '0'];
    const found = (findSourceMap(file) ?? findSourceMap(pathToFileURL(file).href))?.findOrigin(Number(line), Number(column));
    const shown = found && 'fileName' in found ? `${found.fileName.replace(/^file:\/\//, '')}:${found.lineNumber}` : `${file}:${line}`;
    if (!frames.includes(shown)) frames.push(shown);
  }
  return frames.join(' < ');
}

/**
 * True when a statement was sent by test code: a test file or a test helper (its own look at the
 * database). Fixtures (apps under test) are checked like any app.
 */
function fromTestCode(origin: string | null): boolean {
  // No frame of ours at all: the runtime's code always shows on the stack of what it sends; a
  // test's raw pg client (called back from the driver) may not.
  if (origin === null) return true;
  const first = origin.split(' < ')[0];
  return (/\/test\/helpers\//.test(first) || /\/packages\/testing\/src\//.test(first) || /\.test\.[cm]?[jt]s:/.test(first));
}

interface Recorded {
  sql: string;
  origin: string | null;
  count: number;
}

let installed: StatementRecorder | null = null;

export class StatementRecorder {
  private readonly recorded = new Map<string, Recorded>();
  private tenantTables = new Map<string, string>();
  private readonly verdicts = new Map<string, Array<{ table: string }>>();
  private paused = 0;

  private constructor(
    private readonly parse: SqlParser,
    private readonly allowed: CrossTenantStatement[],
  ) {}

  /**
   * Starts recording in this process (once; later calls return the same recorder). Patches
   * `pg.Client.prototype.query` and `pg.Pool.prototype.query`.
   */
  static install(options: { parse: SqlParser; allow?: CrossTenantStatement[] }): StatementRecorder {
    if (installed) return installed;
    const recorder = new StatementRecorder(options.parse, options.allow ?? CROSS_TENANT_STATEMENTS);
    installed = recorder;
    const capture = (): string | null => originOf(callSites());
    const poolQuery = pg.Pool.prototype.query as (...args: unknown[]) => unknown;
    pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
      // The pool hands the statement to a client from a callback: carry the caller's origin there.
      return origins.run(capture() ?? '', () => poolQuery.apply(this, args));
    } as typeof pg.Pool.prototype.query;
    const clientQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string } | undefined;
      const text = typeof first === 'string' ? first : first?.text;
      if (typeof text === 'string' && recorder.paused === 0 && exempt.getStore() === undefined) {
        const origin = capture() ?? (origins.getStore() || null);
        recorder.record(text, origin);
      }
      return clientQuery.apply(this, args);
    } as typeof pg.Client.prototype.query;
    return recorder;
  }

  /** The recorder of this process, if one was installed. */
  static get current(): StatementRecorder | null {
    return installed;
  }

  /** Runs `fn` without checking what it sends (migrations: DDL and backfills span tenants by nature). */
  during<T>(reason: string, fn: () => Promise<T>): Promise<T> {
    return exempt.run(reason, fn);
  }

  /** The tenant tables (`schema.table`): those with a `workspace_id` column, read from the live schema. */
  async loadTenantTables(query: (sql: string) => Promise<Array<{ name: string }>>, exclude: string[] = []): Promise<void> {
    this.paused++;
    try {
      const rows = await query(
        `SELECT DISTINCT table_schema || '.' || table_name AS name FROM information_schema.columns
          WHERE column_name = 'workspace_id' AND (table_schema = 'platform' OR table_schema LIKE 'app\\_%')`,
      );
      this.setTenantTables(rows.map((row) => row.name).filter((name) => !exclude.includes(name)));
    } finally {
      this.paused--;
    }
  }

  setTenantTables(names: string[]): void {
    this.tenantTables = new Map(names.map((name) => [name, name.split('.')[1]]));
    this.verdicts.clear();
  }

  private record(sql: string, origin: string | null): void {
    if (fromTestCode(origin)) return;
    const key = `${origin ?? ''}\u0000${sql}`;
    const seen = this.recorded.get(key);
    if (seen) seen.count++;
    else this.recorded.set(key, { sql, origin, count: 1 });
  }

  /** The tenant tables a statement touches without constraining `workspace_id` (empty: fine or allowed). */
  check(sql: string): string[] {
    const cached = this.verdicts.get(sql);
    if (cached) return cached.map((item) => item.table);
    const flat = sql.replace(/\s+/g, ' ').trim();
    let tables: string[] = [];
    if (!this.allowed.some((entry) => entry.match.test(flat))) {
      let tree: ReturnType<SqlParser> | null;
      try {
        tree = this.parse(sql);
      } catch {
        tree = null; // Not PostgreSQL we can read (never sent by the runtime): the server judges it.
      }
      if (tree) tables = [...new Set(tree.stmts.flatMap(({ stmt }) => unconstrained(stmt, this.tenantTables)))];
    }
    this.verdicts.set(sql, tables.map((table) => ({ table })));
    return tables;
  }

  /** Every violation recorded since the last `take()`; clears the record. */
  take(): StatementViolation[] {
    const violations: StatementViolation[] = [];
    for (const { sql, origin, count } of this.recorded.values()) {
      for (const table of this.check(sql)) violations.push({ table, sql, origin: shownOrigin(origin), count });
    }
    this.recorded.clear();
    return violations;
  }

  /** Throws, listing each statement, when something was sent that does not constrain `workspace_id`. */
  assertClean(): void {
    if (this.tenantTables.size === 0) {
      this.recorded.clear();
      return;
    }
    const violations = this.take();
    if (violations.length === 0) return;
    // WPK_STATEMENT_REPORT=<file>: every violation also goes there, one JSON object a line (an inventory over a whole suite).
    const report = process.env.WPK_STATEMENT_REPORT;
    if (report) fs.appendFileSync(report, violations.map((violation) => `${JSON.stringify(violation)}\n`).join(''));
    const lines = violations.slice(0, 25).map((v) => `- ${v.table} (×${v.count}) from ${v.origin ?? 'unknown'}:\n    ${v.sql.replace(/\s+/g, ' ').slice(0, 400)}`);
    throw new Error(
      `${violations.length} statement(s) reach a tenant table with no workspace_id predicate (a database distributed by workspace would send them to every shard). ` +
        `Constrain workspace_id, or declare the statement in CROSS_TENANT_STATEMENTS (packages/core/src/db/statement-check.ts) with its reason:\n${lines.join('\n')}`,
    );
  }
}

// ---- the walk ----

type Tables = Map<string, string>;

interface Occurrence {
  /** The name the statement refers to it by (alias or table name). */
  ref: string;
  table: string;
}

function str(node: Node | undefined): string | undefined {
  return node?.String?.sval;
}

/** `schema.table` of a RangeVar when it is a tenant table (unqualified names match by table name, unless a CTE). */
function tenantOf(rangeVar: Node, tables: Tables, ctes: Set<string>): string | null {
  const name = rangeVar.schemaname ? `${rangeVar.schemaname}.${rangeVar.relname}` : null;
  if (name) return tables.has(name) ? name : null;
  if (ctes.has(rangeVar.relname)) return null;
  for (const [full, short] of tables) if (short === rangeVar.relname) return full;
  return null;
}

/** The workspace_id references a node constrains: `alias` (or '' for an unqualified reference). */
function constrainedRefs(node: Node | undefined): Set<string> {
  const refs = new Set<string>();
  if (!node) return refs;
  if (node.BoolExpr) {
    const { boolop, args } = node.BoolExpr as { boolop: string; args: Node[] };
    if (boolop === 'AND_EXPR') {
      for (const arg of args) for (const ref of constrainedRefs(arg)) refs.add(ref);
    } else if (boolop === 'OR_EXPR') {
      // Constrained by an OR only when every branch constrains it.
      const sets = args.map((arg) => constrainedRefs(arg));
      for (const ref of sets[0] ?? []) if (sets.every((set) => set.has(ref))) refs.add(ref);
    }
    return refs;
  }
  if (node.SubLink) {
    // `(workspace_id, id) IN (SELECT …)` / `workspace_id = ANY (SELECT …)`
    if (node.SubLink.subLinkType === 'ANY_SUBLINK') for (const ref of workspaceColumns(node.SubLink.testexpr)) refs.add(ref);
    return refs;
  }
  if (node.A_Expr) {
    const expr = node.A_Expr as { kind: string; name: Node[]; lexpr?: Node; rexpr?: Node };
    const op = str(expr.name?.[expr.name.length - 1]);
    const comparing = (expr.kind === 'AEXPR_OP' && op === '=') || expr.kind === 'AEXPR_OP_ANY' || expr.kind === 'AEXPR_IN' || expr.kind === 'AEXPR_NOT_DISTINCT';
    if (!comparing) return refs;
    for (const side of [expr.lexpr, expr.rexpr]) for (const ref of workspaceColumns(side)) refs.add(ref);
  }
  return refs;
}

/** The `workspace_id` column references directly on one side of a comparison (through casts and row constructors). */
function workspaceColumns(node: Node | undefined): string[] {
  if (!node) return [];
  if (node.TypeCast) return workspaceColumns(node.TypeCast.arg);
  if (node.RowExpr) return (node.RowExpr.args as Node[]).flatMap((arg) => workspaceColumns(arg));
  if (node.List) return (node.List.items as Node[]).flatMap((arg) => workspaceColumns(arg));
  if (node.ColumnRef) {
    const fields = (node.ColumnRef.fields as Node[]).map((field) => str(field));
    if (fields.at(-1) !== 'workspace_id') return [];
    return [fields.length >= 2 ? fields.at(-2)! : ''];
  }
  return [];
}

/** Walks a FROM list: tenant occurrences in this scope, join conditions, and nested statements. */
function walkFrom(items: Node[] | undefined, tables: Tables, ctes: Set<string>, found: Occurrence[], quals: Node[], nested: Node[]): void {
  for (const item of items ?? []) {
    if (item.RangeVar) {
      const table = tenantOf(item.RangeVar, tables, ctes);
      if (table) found.push({ ref: item.RangeVar.alias?.aliasname ?? item.RangeVar.relname, table });
    } else if (item.JoinExpr) {
      walkFrom([item.JoinExpr.larg, item.JoinExpr.rarg], tables, ctes, found, quals, nested);
      if (item.JoinExpr.quals) quals.push(item.JoinExpr.quals);
    } else if (item.RangeSubselect) {
      nested.push(item.RangeSubselect.subquery);
    } else {
      collectStatements(item, nested);
    }
  }
}

/** Every statement node below `node` that opens its own scope. */
function collectStatements(node: unknown, out: Node[], top = true): void {
  if (Array.isArray(node)) {
    for (const item of node) collectStatements(item, out, false);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const record = node as Node;
  for (const kind of ['SelectStmt', 'UpdateStmt', 'DeleteStmt', 'InsertStmt']) {
    if (record[kind] && !top) {
      out.push(record);
      return;
    }
  }
  for (const value of Object.values(record)) collectStatements(value, out, false);
}

/** Tenant tables one statement (and every statement nested in it) reaches without a workspace_id predicate. */
function unconstrained(stmt: Node, tables: Tables, outerCtes = new Set<string>()): string[] {
  const body = stmt.SelectStmt ?? stmt.UpdateStmt ?? stmt.DeleteStmt ?? stmt.InsertStmt;
  if (!body) {
    // EXPLAIN, CREATE … AS and the like: look at the statements inside; DDL has none.
    const inner: Node[] = [];
    collectStatements(stmt, inner);
    return inner.flatMap((item) => unconstrained(item, tables, outerCtes));
  }
  const ctes = new Set(outerCtes);
  for (const cte of (body.withClause?.ctes as Node[] | undefined) ?? []) ctes.add(cte.CommonTableExpr.ctename);
  const missing: string[] = [];
  const found: Occurrence[] = [];
  const quals: Node[] = [];
  const nested: Node[] = [];
  for (const cte of (body.withClause?.ctes as Node[] | undefined) ?? []) nested.push(cte.CommonTableExpr.ctequery);

  if (stmt.SelectStmt) {
    if (body.op && body.op !== 'SETOP_NONE') {
      nested.push({ SelectStmt: body.larg }, { SelectStmt: body.rarg });
    } else {
      walkFrom(body.fromClause, tables, ctes, found, quals, nested);
      if (body.whereClause) quals.push(body.whereClause);
      collectStatements([body.targetList, body.whereClause, body.havingClause, quals, body.valuesLists], nested);
    }
  } else if (stmt.InsertStmt) {
    const table = tenantOf(body.relation, tables, ctes);
    const cols = ((body.cols as Node[] | undefined) ?? []).map((col) => col.ResTarget.name);
    if (table && cols.length > 0 && !cols.includes('workspace_id')) missing.push(table);
    if (body.selectStmt) nested.push(body.selectStmt);
    collectStatements([body.onConflictClause, body.returningList], nested);
  } else {
    const table = tenantOf(body.relation, tables, ctes);
    if (table) found.push({ ref: body.relation.alias?.aliasname ?? body.relation.relname, table });
    walkFrom(stmt.UpdateStmt ? body.fromClause : body.usingClause, tables, ctes, found, quals, nested);
    if (body.whereClause) quals.push(body.whereClause);
    collectStatements([body.targetList, body.whereClause, body.returningList, quals], nested);
  }

  const refs = new Set<string>();
  for (const qual of quals) for (const ref of constrainedRefs(qual)) refs.add(ref);
  for (const occurrence of found) {
    if (!refs.has(occurrence.ref) && !(refs.has('') && found.length === 1) && !refs.has(occurrence.table.split('.')[1])) missing.push(occurrence.table);
  }
  for (const item of nested) missing.push(...unconstrained(item.SelectStmt || item.UpdateStmt || item.DeleteStmt || item.InsertStmt ? item : { SelectStmt: item }, tables, ctes));
  return missing;
}

// ---- the declared exceptions ----

/**
 * Statements that reach tenant tables across workspaces on purpose. Each is a maintenance job, an
 * operator's command, a discovery that only finds which workspaces have work, or a look-up that
 * must recognise a credential before its workspace is known. Every entry names its reason; an
 * entry marked `temporary` names a statement another branch is reshaping at the same time.
 */
export const CROSS_TENANT_STATEMENTS: CrossTenantStatement[] = [
  {
    name: 'relay discovery',
    reason: "The relay finds which workspaces have pending events (a read of the pending rows' workspace ids, oldest first); it then claims each workspace's events with statements that name the workspace.",
    match: /^SELECT workspace_id FROM platform\.events e WHERE status = 'pending' .* GROUP BY workspace_id ORDER BY min\(seq\) LIMIT \$1$/,
  },
  {
    name: 'event log purge discovery',
    reason: 'Maintenance: the hourly purge finds the workspaces that have settled events past the retention, then deletes workspace by workspace.',
    match: /^SELECT DISTINCT workspace_id FROM platform\.events WHERE created_at < now\(\) - make_interval/,
  },
  {
    name: 'deliveries queued before the workspace was carried',
    reason: 'A delivery job queued by an older version carries no workspace id: its workspace is looked up once by delivery id (upgrade path; new jobs carry it).',
    match: /^SELECT id, workspace_id FROM platform\.event_deliveries WHERE id = ANY\(\$1::uuid\[\]\)$/,
  },
  {
    name: 'events settled',
    reason: 'Operator and test tooling (`settled()`, `wpk events`): waits until the whole outbox and delivery log are quiet, across workspaces.',
    match: /^SELECT \(SELECT count\(\*\)::int FROM platform\.events WHERE status = 'pending'\) AS events/,
  },
  {
    name: 'delivery log (operator)',
    reason: "Operator tooling (`wpk events list/show/replay`): lists recent deliveries of every workspace, or names one delivery by id; a workspace filter is applied when one is given.",
    match: /^SELECT d\.\*, e\.payload, e\.metadata FROM platform\.event_deliveries d JOIN platform\.events e ON e\.workspace_id = d\.workspace_id AND e\.id = d\.event_id (WHERE d\.id = \$1|(WHERE (?!.*d\.workspace_id = ).*)?ORDER BY d\.created_at DESC)/,
  },
  {
    name: 'delivery replay (operator)',
    reason: 'Operator tooling (`wpk events replay <delivery id>`): the operator names a delivery of any workspace; the new delivery is written with its workspace.',
    match: /^SELECT \* FROM platform\.event_deliveries WHERE id = \$1$/,
  },
  {
    name: "an account's sessions end everywhere",
    reason: 'An account is global (one account, member of several workspaces): a password reset or change ends its sessions in every workspace at once.',
    match: /^DELETE FROM "platform"\."sessions" WHERE "account_id" = /,
  },
  {
    name: "an account's workspaces",
    reason: 'An account is global: `GET /me/workspaces` (the workspace switcher) lists the workspaces the caller\'s own account has joined, across tenants by nature.',
    match: /^SELECT w\.id, w\.subdomain, w\.name, m\.platform_role FROM platform\.members m JOIN platform\.workspaces w ON w\.id = m\.workspace_id\s+WHERE m\.account_id = '[0-9a-f-]{36}' AND /,
  },
  {
    name: 'session sweep',
    reason: 'Maintenance: sessions that expired more than a day ago are deleted, whatever their workspace.',
    match: /^DELETE FROM "platform"\."sessions" WHERE "expires_at" < /,
  },
  {
    name: 'workspaces where an app is installed',
    reason: 'Operator tooling (`wpk search reindex`): finds the workspaces where an app is installed, then rebuilds each workspace with statements that name it.',
    match: /^SELECT workspace_id FROM platform\.app_installations WHERE app_slug = '[^']*' AND status = 'installed'$/,
  },
  {
    name: 'billing loop recovery',
    reason: "Maintenance: a billing worker, at start and once a minute, finds the accounts whose next firing has no job on the queue (scheduled where no worker ran) and queues it; each firing then runs with statements that name its workspace.",
    match: /^SELECT a\.workspace_id, a\.next_run_at FROM platform\.billing_accounts a WHERE NOT EXISTS \(SELECT 1 FROM pgboss\.job j WHERE j\.name = \$1 /,
  },
  {
    name: 'billing collection discovery',
    reason: 'Maintenance: a billing worker, on each pass, finds the invoices of every workspace whose next charge attempt is due; each attempt then runs with statements that name its workspace.',
    match: /^SELECT workspace_id, id FROM platform\.invoices WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= /,
  },
  {
    name: 'coupon redemptions (operator)',
    reason: 'Operator admin (`GET /v/admin/coupon-redemptions`, `DELETE /v/admin/coupon-redemptions/{id}`): lists the redemptions of every workspace, or names one by its id alone; the deletion then names its workspace.',
    match: /^SELECT r\.\*, c\.code FROM platform\.coupon_redemptions r JOIN platform\.coupons c ON c\.id = r\.coupon_id( WHERE r\.id = '[0-9a-f-]{36}')? ORDER BY r\.created_at DESC, r\.id$/,
  },
  {
    name: 'preview app adopters (operator)',
    reason: 'Operator admin (`GET /v/admin/preview-apps`, `GET /v/admin/preview-apps/{slug}/adopters`): the workspaces that adopted a preview app, across workspaces by nature.',
    match: /^SELECT (p\.slug, p\.name, p\.description, p\.created_at, \(SELECT count\(\*\)::int FROM platform\.preview_app_adopters a WHERE a\.app_slug = p\.slug\) AS adopters FROM platform\.preview_apps p ORDER BY p\.slug|a\.workspace_id, w\.subdomain, w\.name, a\.adopted_at FROM platform\.preview_app_adopters a JOIN platform\.workspaces w ON w\.id = a\.workspace_id WHERE a\.app_slug = '[a-z0-9-]+' ORDER BY a\.adopted_at, w\.subdomain)$/,
  },
  {
    name: 'mail outbox sweep',
    reason: "The apps' mail outbox (ctx.mail): the sender finds the due mails of every workspace, then claims, sends and deletes each with statements that name its workspace.",
    match: /^SELECT workspace_id, id FROM platform\.mail_outbox WHERE state = 'queued' AND next_attempt_at <= \$1 ORDER BY next_attempt_at, id LIMIT 20$/,
  },
  {
    name: 'search dictionary pruning discovery',
    reason: "Maintenance: the daily pruning of the search dictionary lists the workspaces that have words, then prunes each workspace with statements that name it.",
    match: /^SELECT DISTINCT workspace_id AS id FROM platform\.search_words$/,
  },
];
