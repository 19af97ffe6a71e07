import { randomUUID } from 'node:crypto';
import { DataTypes, literal, Op, UniqueConstraintError, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import { READ_AS_NUMBER } from '@wpk/sdk/tooling';
import { statement, type FastQuery, type Statement } from '../db/index.js';

/**
 * `ctx.db` reads as prepared statements. Sequelize writes the SQL of a read once per *shape*
 * (which columns, which conditions with which operators, which order; not the values): the read
 * is built with a placeholder in place of each value, its SQL is taken from `sequelize.query`
 * without being sent, and each placeholder becomes `$n`. Every later read of that shape skips Sequelize
 * (option cloning, query building, the per-query Error, instances) and the planner (a named
 * prepared statement per connection; see db/fast-query.ts). A read whose options this does not
 * understand (includes, groups, locks other than FOR UPDATE / FOR SHARE, JSON columns, Sequelize helpers such as `literal` or
 * `fn`) returns null here and goes through Sequelize as before.
 */

/** A compiled read: the statement and, per parameter, where its value comes from. */
interface CompiledRead {
  statement: Statement;
  /** Index into the read's values for each `$n` (n = position + 1). */
  order: number[];
}

/** What a read's options gave: the shape's key and the values in walk order. */
interface Shape {
  key: string;
  values: unknown[];
}

class Captured extends Error {
  constructor(readonly sql: string) {
    super('captured');
  }
}

/** The option that makes `sequelize.query` hand its SQL back (as a Captured rejection) instead of sending it. */
const CAPTURE = '__wpkCaptureSql';
const capturing = new WeakSet<Sequelize>();

/** Installs the capture on a Sequelize instance (once): a read carrying CAPTURE is never sent. */
function installCapture(sequelize: Sequelize): void {
  if (capturing.has(sequelize)) return;
  capturing.add(sequelize);
  const query = sequelize.query.bind(sequelize) as (sql: unknown, options?: Record<string, unknown>) => Promise<unknown>;
  (sequelize as unknown as { query: typeof query }).query = (sql, options) => (options?.[CAPTURE] ? Promise.reject(new Captured(typeof sql === 'string' ? sql : String((sql as { query?: string }).query ?? sql))) : query(sql, options));
}

const OPERATORS = new Map<symbol, string>([
  [Op.eq, 'eq'],
  [Op.ne, 'ne'],
  [Op.gt, 'gt'],
  [Op.gte, 'gte'],
  [Op.lt, 'lt'],
  [Op.lte, 'lte'],
  [Op.in, 'in'],
  [Op.notIn, 'notIn'],
  [Op.like, 'like'],
  [Op.notLike, 'notLike'],
  [Op.iLike, 'iLike'],
  [Op.notILike, 'notILike'],
  [Op.between, 'between'],
  [Op.notBetween, 'notBetween'],
]);
/** The alias of the count a page read carries beside each row. */
export const TOTAL_COLUMN = '__wpk_total';
/** Where the count's subquery goes in a captured page read (a literal attribute, replaced after capture). */
const TOTAL_SLOT = '__wpk_total_subquery__';

const READ_OPTIONS = new Set(['where', 'attributes', 'order', 'limit', 'offset', 'lock']);
const PLACEHOLDER = /'__wpk_p(\d+)__'/g;

/** Hands out placeholders in walk order: a value becomes `'__wpk_p<n>__'`. */
class Marks {
  count = 0;
  next = (): string => `__wpk_p${this.count++}__`;
  /** A value with each primitive in it replaced by the next placeholder (null kept). */
  mark = (value: unknown): unknown => {
    if (value === null) return null;
    if (isPrimitive(value)) return this.next();
    if (Array.isArray(value)) return value.map(this.mark);
    if (typeof value === 'object') {
      const copy: Record<string | symbol, unknown> = {};
      for (const symbol of Object.getOwnPropertySymbols(value)) copy[symbol] = this.mark((value as Record<symbol, unknown>)[symbol]);
      for (const [key, inner] of Object.entries(value)) copy[key] = this.mark(inner);
      return copy;
    }
    return value;
  };
}

/**
 * Each placeholder of `sql` becomes one parameter `$n` (n from `offset + 1`), however often the
 * text names it (a page's count repeats its conditions). `order` gives, per parameter, the index
 * of its value. Null when a placeholder is left over (Sequelize rewrote one).
 */
function numberPlaceholders(sql: string, offset: number): { text: string; order: number[] } | null {
  const order: number[] = [];
  const numbers = new Map<number, number>();
  const text = sql.replace(PLACEHOLDER, (_, position: string) => {
    const at = Number(position);
    let number = numbers.get(at);
    if (number === undefined) {
      order.push(at);
      number = offset + order.length;
      numbers.set(at, number);
    }
    return `$${number}`;
  });
  return text.includes('__wpk_p') ? null : { text, order };
}

/** Whether an attribute's getter is the SDK's BIGINT-as-number one (then a plain read converts the value itself). */
export const readsAsNumber = (attribute: object): boolean => (attribute as Record<string, unknown>)[READ_AS_NUMBER] === true;

/** The attributes a plain row must convert to numbers (BIGINT read as a number; see the SDK's `column.bigint`). */
export function numberColumnsOf(model: ModelStatic<Model>): string[] {
  return Object.entries(model.getAttributes())
    .filter(([, attribute]) => readsAsNumber(attribute))
    .map(([name]) => name);
}

/** Plain rows with `columns` converted as their getters would (null kept); the rows themselves, changed in place. */
export function withNumbers<R extends Record<string, unknown> | null>(rows: R[], columns: readonly string[]): R[] {
  if (columns.length === 0) return rows;
  for (const row of rows) {
    if (!row) continue;
    for (const column of columns) {
      const value = row[column];
      if (value !== null && value !== undefined && typeof value !== 'number') (row as Record<string, unknown>)[column] = Number(value);
    }
  }
  return rows;
}

/** The SET of a prepared update: attribute names and the values sent for them, in order. */
export interface UpdateSet {
  attributes: string[];
  values: unknown[];
}

const isPrimitive = (value: unknown) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' || value instanceof Date;

/**
 * The prepared reads of one model. `columns` are the attributes a condition may name directly
 * (JSON columns excluded: Sequelize reads nested objects on them as paths).
 */
export class PreparedReads {
  private readonly compiled = new Map<string, CompiledRead | null>();
  private readonly columns: Set<string>;

  constructor(
    private readonly model: ModelStatic<Model>,
    private readonly fast: FastQuery,
  ) {
    const attributes = model.getAttributes() as Record<string, { type: unknown }>;
    installCapture(model.sequelize!);
    this.columns = new Set(Object.keys(attributes).filter((name) => !(attributes[name].type instanceof DataTypes.JSON) && !(attributes[name].type instanceof DataTypes.JSONB)));
  }

  /**
   * The rows of a read (`options` already carry the tenant filter and uuid-safe values), or null
   * when the options have a shape this does not prepare.
   */
  async rows(options: Record<string, unknown>, withTotal = false): Promise<Record<string, unknown>[] | null> {
    const shape = this.shapeOf(options, withTotal);
    if (!shape) return null;
    let compiled = this.compiled.get(shape.key);
    if (compiled === undefined) {
      compiled = await this.compile(options, shape, withTotal);
      this.compiled.set(shape.key, compiled);
    }
    if (!compiled) return null;
    return this.fast.rows<Record<string, unknown>>(compiled.statement, compiled.order.map((index) => shape.values[index]));
  }

  /** The shape's key and its values, or null for options this does not prepare. */
  private shapeOf(options: Record<string, unknown>, withTotal: boolean): Shape | null {
    const values: unknown[] = [];
    for (const key of Object.keys(options)) if (!READ_OPTIONS.has(key) && options[key] !== undefined) return null;
    if (Object.getOwnPropertySymbols(options).length > 0) return null;
    const where = options.where === undefined ? '' : this.whereShape(options.where, values);
    if (where === null) return null;
    const attributes = options.attributes;
    if (attributes !== undefined && !(Array.isArray(attributes) && attributes.every((name) => typeof name === 'string' && this.model.getAttributes()[name]))) return null;
    const order = options.order;
    if (order !== undefined && !(Array.isArray(order) && order.every((entry) => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && this.model.getAttributes()[entry[0]] && /^(ASC|DESC)( NULLS (FIRST|LAST))?$/i.test(String(entry[1]))))) return null;
    let limit = '';
    for (const name of ['limit', 'offset'] as const) {
      const value = options[name];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return null;
      limit += `${name}:${values.length};`;
      values.push(value);
    }
    // A row lock as models.ts passes it (FOR UPDATE / FOR SHARE); the read runs in the open transaction.
    const lock = options.lock;
    if (lock !== undefined && lock !== true && lock !== 'SHARE') return null;
    return { key: `t:${withTotal}|w:${where}|a:${JSON.stringify(attributes ?? null)}|o:${JSON.stringify(order ?? null)}|${limit}|l:${lock ?? ''}`, values };
  }

  /** A condition's shape: column names and operators kept, each value replaced by its position. */
  private whereShape(where: unknown, values: unknown[]): string | null {
    if (!where || typeof where !== 'object' || Array.isArray(where) || Object.getPrototypeOf(where) !== Object.prototype) return null;
    const parts: string[] = [];
    for (const symbol of Object.getOwnPropertySymbols(where)) {
      if (symbol !== Op.and && symbol !== Op.or) return null;
      const list = (where as Record<symbol, unknown>)[symbol];
      if (!Array.isArray(list)) return null;
      const inner: string[] = [];
      for (const item of list) {
        const shape = this.whereShape(item, values);
        if (shape === null) return null;
        inner.push(shape);
      }
      parts.push(`${symbol === Op.and ? 'and' : 'or'}[${inner.join(',')}]`);
    }
    for (const [column, value] of Object.entries(where)) {
      if (!this.columns.has(column)) return null;
      const shape = this.valueShape(value, values);
      if (shape === null) return null;
      parts.push(`${JSON.stringify(column)}:${shape}`);
    }
    return `{${parts.join(',')}}`;
  }

  private valueShape(value: unknown, values: unknown[]): string | null {
    if (value === null) return 'null';
    if (isPrimitive(value)) {
      values.push(value);
      return `${typeof value === 'object' ? 'date' : typeof value}?`;
    }
    if (Array.isArray(value)) {
      if (!value.every(isPrimitive)) return null;
      values.push(...value);
      return `[${value.length}]`;
    }
    if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype || Object.keys(value).length > 0) return null;
    const parts: string[] = [];
    for (const symbol of Object.getOwnPropertySymbols(value)) {
      const name = OPERATORS.get(symbol);
      if (!name) return null;
      const shape = this.valueShape((value as Record<symbol, unknown>)[symbol], values);
      if (shape === null) return null;
      parts.push(`${name}:${shape}`);
    }
    return `{${parts.join(',')}}`;
  }

  /**
   * Builds the read once with placeholders and captures Sequelize's SQL (the read carries an
   * option that makes `sequelize.query` reject with the SQL instead of sending it). Null when the SQL does not carry every placeholder exactly
   * once (Sequelize rewrote a value): that shape then always goes through Sequelize.
   */
  private async compile(options: Record<string, unknown>, shape: Shape, withTotal: boolean): Promise<CompiledRead | null> {
    // Sequelize formats a date column's value itself (a placeholder would reach moment.js as a
    // date it cannot read): such reads keep going through Sequelize.
    if (options.where !== undefined && this.comparesDates(options.where)) return null;
    const marks = new Marks();
    // Op.and / Op.or hold arrays of conditions: walked in the same order as whereShape.
    const where = options.where === undefined ? undefined : this.placeholdersWhere(options.where, marks.mark);
    const limitIndex: Record<string, string> = {};
    for (const name of ['limit', 'offset'] as const) if (typeof options[name] === 'number') limitIndex[name] = marks.next();
    let sql = await this.captured(() =>
      this.model.findAll({
        ...options,
        ...(withTotal ? { attributes: [...((options.attributes as string[] | undefined) ?? Object.keys(this.model.getAttributes())), [literal(TOTAL_SLOT), TOTAL_COLUMN]] } : {}),
        where,
        ...limitIndex,
        raw: true,
        [CAPTURE]: true,
      } as never),
    );
    if (sql === null || marks.count !== shape.values.length) return null;
    if (withTotal) {
      // The count of every matching row as an uncorrelated scalar subquery: PostgreSQL runs it
      // once (an InitPlan, by an index-only scan where an index covers the filter), and the page
      // itself stops after offset + limit rows. A window count (`count(*) OVER ()`) instead
      // reads every matching row in full before the page is cut: 2.5x the server's CPU on a
      // page of 20 among 1,000 (docs/decisions/0025-hot-path.md).
      const count = await this.captured(() => this.model.count({ where, [CAPTURE]: true } as never));
      if (count === null || sql.split(TOTAL_SLOT).length !== 2) return null;
      sql = sql.replace(TOTAL_SLOT, `(${count})`);
    }
    const numbered = numberPlaceholders(sql, 0);
    if (!numbered || numbered.order.length !== shape.values.length || numbered.text.includes(TOTAL_SLOT)) return null;
    return { statement: statement(numbered.text), order: numbered.order };
  }

  /**
   * `update(values, options)` as one prepared `UPDATE … SET … WHERE …`: `set` holds the columns
   * and the values to send (PreparedCreates.setOf), `options` the tenant-scoped options. The
   * condition is compiled as a read's (the same shapes, the same SQL as `findAll` writes for it).
   * Returns the number of rows changed, or null when the options are not a condition this
   * prepares (then Sequelize updates).
   */
  async update(set: UpdateSet, options: Record<string, unknown>): Promise<number | null> {
    for (const key of Object.keys(options)) if (key !== 'where' && options[key] !== undefined) return null;
    if (Object.getOwnPropertySymbols(options).length > 0 || options.where === undefined) return null;
    const values: unknown[] = [];
    const where = this.whereShape(options.where, values);
    if (where === null) return null;
    const key = `u:${set.attributes.join(',')}|w:${where}`;
    let compiled = this.compiled.get(key);
    if (compiled === undefined) {
      compiled = await this.compileUpdate(set, options.where, values.length);
      this.compiled.set(key, compiled);
    }
    if (!compiled) return null;
    const parameters = set.values.slice();
    for (const index of compiled.order) parameters.push(values[index]);
    return this.fast.changed(compiled.statement, parameters);
  }

  private async compileUpdate(set: UpdateSet, where: unknown, valueCount: number): Promise<CompiledRead | null> {
    if (this.comparesDates(where)) return null;
    const marks = new Marks();
    const marked = this.placeholdersWhere(where, marks.mark);
    const [first] = Object.keys(this.model.getAttributes());
    const sql = await this.captured(() => this.model.findAll({ where: marked, attributes: [first], raw: true, [CAPTURE]: true } as never));
    // `SELECT "a" FROM "schema"."table" AS "alias" WHERE …`: the table with its alias (the
    // condition names columns through it) and the condition.
    const parts = sql === null ? null : /^SELECT .+? FROM (.+?) WHERE (.+)$/s.exec(sql);
    if (!parts || marks.count !== valueCount) return null;
    const attributes = this.model.getAttributes() as Record<string, { field?: string }>;
    const assignments = set.attributes.map((name, index) => `${quote(attributes[name].field ?? name)} = $${index + 1}`);
    const numbered = numberPlaceholders(parts[2], set.attributes.length);
    if (!numbered || numbered.order.length !== valueCount) return null;
    return { statement: statement(`UPDATE ${parts[1]} SET ${assignments.join(', ')} WHERE ${numbered.text}`), order: numbered.order };
  }

  /** The SQL a read hands to `sequelize.query` (it carries CAPTURE, so nothing is sent), or null when it fails before that. */
  private async captured(read: () => Promise<unknown>): Promise<string | null> {
    try {
      await read();
    } catch (error) {
      return error instanceof Captured ? error.sql.replace(/;\s*$/, '') : null;
    }
    return null;
  }

  /** Whether the condition compares a DATE or DATEONLY column (at any depth of Op.and / Op.or). */
  private comparesDates(where: unknown): boolean {
    if (typeof where !== 'object' || where === null) return false;
    const attributes = this.model.getAttributes() as Record<string, { type?: { key?: string } }>;
    for (const symbol of Object.getOwnPropertySymbols(where)) {
      const items = (where as Record<symbol, unknown>)[symbol];
      if (Array.isArray(items) && items.some((item) => this.comparesDates(item))) return true;
    }
    return Object.keys(where).some((column) => ['DATE', 'DATEONLY'].includes(attributes[column]?.type?.key ?? ''));
  }

  private placeholdersWhere(where: unknown, placeholders: (value: unknown) => unknown): unknown {
    const copy: Record<string | symbol, unknown> = {};
    for (const symbol of Object.getOwnPropertySymbols(where as object)) {
      copy[symbol] = ((where as Record<symbol, unknown[]>)[symbol]).map((item) => this.placeholdersWhere(item, placeholders));
    }
    for (const [column, value] of Object.entries(where as object)) copy[column] = placeholders(value);
    return copy;
  }
}

interface AttributeDefinition {
  field?: string;
  type: unknown;
  allowNull?: boolean;
  defaultValue?: unknown;
  autoIncrement?: boolean;
  primaryKey?: boolean;
  get?: unknown;
  set?: unknown;
  validate?: unknown;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * `ctx.db` creates as prepared statements: `INSERT … VALUES ($1, …) RETURNING …`, one statement
 * per set of given columns, with what Sequelize's `create` would add done here (JavaScript
 * defaults, `NOW`, `UUIDV4`, the timestamps). Models that need more of Sequelize (validators,
 * setters, hooks, VIRTUAL attributes, SQL defaults given as `literal`/`fn`) and values it would
 * refuse (a missing non-null column, an object for a text column) go through Sequelize as before,
 * so errors and messages stay its own. A unique violation is raised as Sequelize's
 * UniqueConstraintError, as before.
 */
export class PreparedCreates {
  private readonly statements = new Map<string, Statement>();
  private readonly attributes: Record<string, AttributeDefinition>;
  private readonly usable: boolean;
  private readonly table: string;
  private readonly returning: string;
  private readonly timestamps: string[];
  /** BIGINT columns read as numbers: the created row converts them. */
  private readonly numbers: string[];
  private readonly updatedAt: string | undefined;

  constructor(
    private readonly model: ModelStatic<Model>,
    private readonly fast: FastQuery,
  ) {
    this.attributes = model.getAttributes() as Record<string, AttributeDefinition>;
    const definitions = Object.values(this.attributes);
    const hooks = (model.options as { hooks?: Record<string, unknown> }).hooks ?? {};
    const plainDefault = (value: unknown) =>
      value === undefined || value === null || typeof value !== 'object' || value instanceof DataTypes.NOW || value instanceof DataTypes.UUIDV4 || Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype;
    this.usable =
      Object.keys(hooks).length === 0 &&
      definitions.every((attribute) => (!attribute.get || readsAsNumber(attribute)) && !attribute.set && !attribute.validate && !(attribute.type instanceof DataTypes.VIRTUAL) && plainDefault(attribute.defaultValue));
    const name = model.getTableName() as unknown as { schema?: string; tableName: string } | string;
    this.table = typeof name === 'string' ? quote(name) : `${name.schema ? `${quote(name.schema)}.` : ''}${quote(name.tableName)}`;
    this.returning = Object.entries(this.attributes)
      .map(([attribute, definition]) => `${quote(definition.field ?? attribute)} AS ${quote(attribute)}`)
      .join(', ');
    const stamps = (model as unknown as { _timestampAttributes: { createdAt?: string; updatedAt?: string } })._timestampAttributes ?? {};
    this.timestamps = [stamps.createdAt, stamps.updatedAt].filter((stamp): stamp is string => typeof stamp === 'string');
    this.numbers = numberColumnsOf(model);
    this.updatedAt = stamps.updatedAt;
  }

  /** The created row, or null when this create must go through Sequelize. */
  async create(values: Record<string, unknown>): Promise<Record<string, unknown> | null> {
    if (!this.usable) return null;
    const row: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) continue;
      if (!this.attributes[key]) return null; // Sequelize ignores unknown keys: let it
      row[key] = value;
    }
    const now = new Date();
    for (const stamp of this.timestamps) if (row[stamp] === undefined) row[stamp] = now;
    for (const [attribute, definition] of Object.entries(this.attributes)) {
      if (row[attribute] !== undefined) continue;
      const fallback = definition.defaultValue;
      if (fallback instanceof DataTypes.NOW) row[attribute] = now;
      else if (fallback instanceof DataTypes.UUIDV4) row[attribute] = randomUUID();
      else if (fallback !== undefined) row[attribute] = structuredClone(fallback);
      else if (definition.allowNull === false && !definition.autoIncrement) return null; // Sequelize's ValidationError
    }
    const columns = Object.keys(row);
    for (const column of columns) {
      const sent = columnValue(this.attributes[column], row[column]);
      if (sent === REFUSED) return null;
      row[column] = sent;
    }
    const key = columns.join(',');
    let prepared = this.statements.get(key);
    if (!prepared) {
      const fields = columns.map((column) => quote(this.attributes[column].field ?? column));
      prepared = statement(`INSERT INTO ${this.table} (${fields.join(', ')}) VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')}) RETURNING ${this.returning}`);
      this.statements.set(key, prepared);
    }
    try {
      const [created] = await this.fast.rows<Record<string, unknown>>(prepared, columns.map((column) => row[column]));
      return withNumbers([created], this.numbers)[0];
    } catch (error) {
      throw asSequelizeError(error as Error & { code?: string; detail?: string; constraint?: string });
    }
  }

  /**
   * The SET of `update(values)` as Sequelize's bulk update writes it: the given columns (undefined
   * ones left out) and the model's `updatedAt` stamp set to now. Null when the update must go
   * through Sequelize: a model this does not prepare, a key that is no attribute (Sequelize ignores
   * it), `workspace_id`, a null for a column that allows none (its notNull violation), a value
   * `columnValue` refuses.
   */
  setOf(values: Record<string, unknown>): UpdateSet | null {
    if (!this.usable) return null;
    const set: UpdateSet = { attributes: [], values: [] };
    const updatedAt = this.updatedAt;
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined || key === updatedAt) continue;
      const definition = this.attributes[key];
      if (!definition || key === 'workspace_id' || (value === null && definition.allowNull === false)) return null;
      const sent = columnValue(definition, value);
      if (sent === REFUSED) return null;
      set.attributes.push(key);
      set.values.push(sent);
    }
    if (updatedAt) {
      set.attributes.push(updatedAt);
      set.values.push(new Date());
    }
    return set.attributes.length > 0 ? set : null;
  }
}

/** A value Sequelize must judge: the write goes through it, so its errors stay its own. */
const REFUSED = Symbol('refused');

/**
 * A column's value as a prepared write sends it: JSON serialised for JSON columns, other values as
 * pg sends them. REFUSED where Sequelize would refuse the value or write it differently: an object
 * for a text column ("string violation"), a value outside an ENUM, a Date for a DATEONLY column
 * (Sequelize writes the day in its own time zone), anything but a plain value for other columns
 * (Sequelize's `fn`, `col` and `literal` among them).
 */
function columnValue(definition: AttributeDefinition, value: unknown): unknown {
  if (value === null) return null;
  const type = definition.type;
  if (type instanceof DataTypes.JSON || type instanceof DataTypes.JSONB) return JSON.stringify(value);
  if (type instanceof DataTypes.ENUM) return (type as unknown as { values: unknown[] }).values.includes(value) ? value : REFUSED;
  if (type instanceof DataTypes.DATEONLY && value instanceof Date) return REFUSED;
  if (isPrimitive(value) || Buffer.isBuffer(value)) return value;
  if (Array.isArray(value) && !(type instanceof DataTypes.STRING || type instanceof DataTypes.TEXT || type instanceof DataTypes.CITEXT || type instanceof DataTypes.UUID)) {
    return value.every((item) => item === null || isPrimitive(item)) ? value : REFUSED;
  }
  return REFUSED;
}

/** A unique violation as Sequelize reports it (UniqueConstraintError with the fields), anything else as it is. */
function asSequelizeError(error: Error & { code?: string; detail?: string; constraint?: string }): Error {
  if (error.code !== '23505') return error;
  const match = /Key \((.*)\)=\((.*)\) already exists/.exec(error.detail ?? '');
  const fields: Record<string, string> = {};
  if (match) {
    const names = match[1].split(', ');
    const values = match[2].split(', ');
    names.forEach((name, index) => (fields[name.replace(/^"|"$/g, '')] = values[index]));
  }
  return new UniqueConstraintError({ message: 'Validation error', fields, parent: error as never, original: error as never, errors: [] } as never);
}
