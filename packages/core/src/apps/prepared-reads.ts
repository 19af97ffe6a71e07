import { randomUUID } from 'node:crypto';
import { DataTypes, literal, Op, UniqueConstraintError, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import { statement, type FastQuery, type Statement } from '../db/index.js';

/**
 * `ctx.db` reads as prepared statements. Sequelize writes the SQL of a read once per *shape*
 * (which columns, which conditions with which operators, which order; not the values): the read
 * is built with a placeholder in place of each value, its SQL is taken from `sequelize.query`
 * without being sent, and each placeholder becomes `$n`. Every later read of that shape skips Sequelize
 * (option cloning, query building, the per-query Error, instances) and the planner (a named
 * prepared statement per connection; see db/fast-query.ts). A read whose options this does not
 * understand (includes, groups, locks, JSON columns, Sequelize helpers such as `literal` or
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

const READ_OPTIONS = new Set(['where', 'attributes', 'order', 'limit', 'offset']);
const PLACEHOLDER = /'__wpk_p(\d+)__'/g;

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
    return { key: `t:${withTotal}|w:${where}|a:${JSON.stringify(attributes ?? null)}|o:${JSON.stringify(order ?? null)}|${limit}`, values };
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
    let index = 0;
    const placeholders = (value: unknown): unknown => {
      if (value === null) return null;
      if (isPrimitive(value)) return `__wpk_p${index++}__`;
      if (Array.isArray(value)) return value.map(placeholders);
      if (typeof value === 'object') {
        const copy: Record<string | symbol, unknown> = {};
        for (const symbol of Object.getOwnPropertySymbols(value)) copy[symbol] = placeholders((value as Record<symbol, unknown>)[symbol]);
        for (const [key, inner] of Object.entries(value)) copy[key] = placeholders(inner);
        return copy;
      }
      return value;
    };
    // Op.and / Op.or hold arrays of conditions: walked in the same order as whereShape.
    const where = options.where === undefined ? undefined : this.placeholdersWhere(options.where, placeholders);
    const limitIndex: Record<string, string> = {};
    for (const name of ['limit', 'offset'] as const) if (typeof options[name] === 'number') limitIndex[name] = `__wpk_p${index++}__`;
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
    if (sql === null || index !== shape.values.length) return null;
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
    // Each placeholder becomes one parameter, however often the text names it (the count repeats
    // the page's conditions).
    const order: number[] = [];
    const numbers = new Map<number, number>();
    const text = sql.replace(PLACEHOLDER, (_, position: string) => {
      const at = Number(position);
      let number = numbers.get(at);
      if (number === undefined) {
        order.push(at);
        number = order.length;
        numbers.set(at, number);
      }
      return `$${number}`;
    });
    if (order.length !== shape.values.length || text.includes('__wpk_p') || text.includes(TOTAL_SLOT)) return null;
    return { statement: statement(text), order };
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
      definitions.every((attribute) => !attribute.get && !attribute.set && !attribute.validate && !(attribute.type instanceof DataTypes.VIRTUAL) && plainDefault(attribute.defaultValue));
    const name = model.getTableName() as unknown as { schema?: string; tableName: string } | string;
    this.table = typeof name === 'string' ? quote(name) : `${name.schema ? `${quote(name.schema)}.` : ''}${quote(name.tableName)}`;
    this.returning = Object.entries(this.attributes)
      .map(([attribute, definition]) => `${quote(definition.field ?? attribute)} AS ${quote(attribute)}`)
      .join(', ');
    const stamps = (model as unknown as { _timestampAttributes: { createdAt?: string; updatedAt?: string } })._timestampAttributes ?? {};
    this.timestamps = [stamps.createdAt, stamps.updatedAt].filter((stamp): stamp is string => typeof stamp === 'string');
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
      const type = this.attributes[column].type;
      const value = row[column];
      const textual = type instanceof DataTypes.STRING || type instanceof DataTypes.TEXT || type instanceof DataTypes.CITEXT || type instanceof DataTypes.UUID;
      if (textual && value !== null && typeof value === 'object') return null; // Sequelize's "string violation"
      if ((type instanceof DataTypes.JSON || type instanceof DataTypes.JSONB) && value !== null) row[column] = JSON.stringify(value);
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
      return created;
    } catch (error) {
      throw asSequelizeError(error as Error & { code?: string; detail?: string; constraint?: string });
    }
  }
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
