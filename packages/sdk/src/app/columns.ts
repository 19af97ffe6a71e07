import { DataTypes, type DataType, type ModelAttributeColumnOptions } from 'sequelize';

/** The attribute option marking a BIGINT read as a number (the getter's conversion, known to the runtime). */
export const READ_AS_NUMBER = 'wpkReadAsNumber';

/** What a column builder has been told so far (the column's options before it has a name). */
interface ColumnSpec {
  readonly type: DataType;
  readonly nullable: boolean;
  readonly primaryKey: boolean;
  readonly defaultValue?: unknown;
  /** BIGINT read as a number: a getter converts what the driver gives (a string on PostgreSQL). */
  readonly asNumber: boolean;
}

/**
 * A typed column of a model, built with `column.*` and refined with `.nullable()`, `.default()`,
 * `.primaryKey()`, `.of<T>()`: `T` is what a row holds in it, and `defineModel` infers the row type
 * from the columns. Immutable: every refinement returns a new column (so one may be shared).
 */
export class Column<T> {
  /** Type-level only: the value a row holds in this column. */
  declare readonly __value: T;
  readonly #spec: ColumnSpec;

  constructor(spec: ColumnSpec) {
    this.#spec = spec;
  }

  /** The column may hold NULL (`allowNull: true`); the row type gets `| null`. */
  nullable(): Column<T | null> {
    return new Column<T | null>({ ...this.#spec, nullable: true });
  }

  /** The value an insert that leaves the column out stores (`defaultValue`). */
  default(value: T): Column<T> {
    return new Column<T>({ ...this.#spec, defaultValue: value });
  }

  /** A random UUID (v4) when an insert leaves the column out. */
  defaultRandom(this: Column<string>): Column<T> {
    return new Column<T>({ ...this.#spec, defaultValue: DataTypes.UUIDV4 });
  }

  /** The current time when an insert leaves the column out. */
  defaultNow(this: Column<Date>): Column<T> {
    return new Column<T>({ ...this.#spec, defaultValue: DataTypes.NOW });
  }

  /** Part of the primary key (with `workspace_id`, which the runtime adds to every key). */
  primaryKey(): Column<T> {
    return new Column<T>({ ...this.#spec, primaryKey: true });
  }

  /** Narrows the value's type, e.g. a string column holding a union: `column.string(10).of<ChatType>()`. */
  of<U extends NonNullable<T>>(): Column<null extends T ? U | null : U> {
    return new Column({ ...this.#spec });
  }

  /** The Sequelize column options for the column `name`, exactly as a hand-written column map gives them. */
  options(name: string): ModelAttributeColumnOptions {
    const spec = this.#spec;
    const options: ModelAttributeColumnOptions = { type: spec.type, ...(spec.primaryKey ? { primaryKey: true } : { allowNull: spec.nullable }) };
    if (spec.defaultValue !== undefined) options.defaultValue = spec.defaultValue;
    if (spec.asNumber) {
      options.get = function (this: { getDataValue(key: string): unknown }) {
        const value = this.getDataValue(name);
        return value === null || value === undefined ? value : Number(value);
      };
      // Says what the getter does, so the runtime's plain reads and prepared writes convert the
      // value themselves instead of building an instance for it.
      (options as unknown as Record<string, unknown>)[READ_AS_NUMBER] = true;
    }
    return options;
  }
}

/** The value type of a column. */
export type ColumnValue<C> = C extends { readonly __value: infer T } ? T : never;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each column fixes its own value type
export type ColumnMap = Record<string, Column<any>>;

const of = <T>(type: DataType, more: Partial<ColumnSpec> = {}): Column<T> => new Column<T>({ type, nullable: false, primaryKey: false, asNumber: false, ...more });

/**
 * BIGINT, read as a number (a getter converts the driver's string; exact up to 2^53). `{ mode:
 * 'raw' }`: no getter, the value as the driver gives it (PostgreSQL: a string, embedded: a
 * number), and the model keeps its plain fast reads.
 */
function bigint(options?: { mode?: 'number' }): Column<number>;
function bigint(options: { mode: 'raw' }): Column<number | string>;
function bigint(options?: { mode?: 'number' | 'raw' }): Column<number | string> {
  return of(DataTypes.BIGINT, { asNumber: (options?.mode ?? 'number') === 'number' });
}

/**
 * Column builders for `defineModel`: each gives a NOT NULL column of one type; `.nullable()`,
 * `.default(v)`, `.primaryKey()`, `.defaultRandom()`, `.defaultNow()` and `.of<T>()` refine it.
 *
 * ```ts
 * export const chats = defineModel('chats', {
 *   id: column.uuid().primaryKey().defaultRandom(),
 *   type: column.enum(CHAT_TYPES, 10),
 *   name: column.string(200).nullable(),
 *   last_seq: column.bigint().default(0),
 * });
 * export type Chat = DeclaredRow<typeof chats>;
 * ```
 */
export const column = {
  /** UUID, read as a string. */
  uuid: (): Column<string> => of(DataTypes.UUID),
  /** VARCHAR(length). */
  string: (length: number): Column<string> => of(DataTypes.STRING(length)),
  /** VARCHAR(length) holding one of `values` (typed as their union; the database does not check it). */
  enum: <const V extends readonly string[]>(values: V, length: number): Column<V[number]> => {
    if (values.some((value) => value.length > length)) throw new TypeError(`column.enum: a value is longer than ${length}`);
    return of(DataTypes.STRING(length));
  },
  /** TEXT. */
  text: (): Column<string> => of(DataTypes.TEXT),
  /** INTEGER. */
  integer: (): Column<number> => of(DataTypes.INTEGER),
  /**
   * BIGINT, read as a number (a getter converts the driver's string; exact up to 2^53). `{ mode:
   * 'raw' }`: no getter, the value as the driver gives it (PostgreSQL: a string, embedded: a
   * number), and the model keeps its plain fast reads.
   */
  /** BIGINT, read as a number; `{ mode: 'raw' }`: as the driver gives it, no getter. */
  bigint,
  /** DOUBLE PRECISION. */
  double: (): Column<number> => of(DataTypes.DOUBLE),
  /** REAL. */
  real: (): Column<number> => of(DataTypes.REAL),
  /** NUMERIC(precision, scale), read as an exact decimal string. */
  decimal: (precision: number, scale: number): Column<string> => of(DataTypes.DECIMAL(precision, scale)),
  /** BOOLEAN. */
  boolean: (): Column<boolean> => of(DataTypes.BOOLEAN),
  /** TIMESTAMP WITH TIME ZONE, read as a Date. */
  date: (): Column<Date> => of(DataTypes.DATE),
  /** DATE (a calendar day), read as a `YYYY-MM-DD` string. */
  dateOnly: (): Column<string> => of(DataTypes.DATEONLY),
  /** JSONB holding a `T`. */
  json: <T>(): Column<T> => of(DataTypes.JSONB),
  /** BYTEA, read as a Buffer. */
  blob: (): Column<Buffer> => of(DataTypes.BLOB),
};
