/**
 * An SQL condition or ordering over one model's rows, for `ctx.db.<model>.findAll({ where, order })`
 * and `count({ where })` when a `where` object cannot say it (a typed expression over a JSON
 * column, an ordering by an expression). Every interpolated value is sent as a bound parameter,
 * never spliced into the text; the platform adds the workspace condition outside the fragment.
 */
export interface SqlFragment {
  /** Marks the object as a fragment built by `sql`. */
  readonly kind: 'wpk.sql';
  /** The text around the values (one more than the values). */
  readonly strings: readonly string[];
  /** The values, each sent as a bound parameter (a fragment among them is spliced with its own values). */
  readonly values: readonly unknown[];
}

/**
 * Builds an SQL fragment: `` sql`(cells ->> ${fieldId}::text) = ${value}` `` sends `fieldId` and
 * `value` as bound parameters (cast them where PostgreSQL cannot infer a type). A value that is
 * itself a fragment is spliced in with its values, so fragments compose.
 */
export function sql(strings: TemplateStringsArray | readonly string[], ...values: unknown[]): SqlFragment {
  if (strings.length !== values.length + 1) throw new TypeError('sql: the text must surround the values (use it as a tagged template)');
  return Object.freeze({ kind: 'wpk.sql' as const, strings: [...strings], values });
}

/** Joins fragments with a separator of plain text (`joinSql(conditions, ' AND ')`); none joined give `empty` (default an empty fragment). */
export function joinSql(fragments: readonly SqlFragment[], separator: string, empty: SqlFragment = sql``): SqlFragment {
  if (fragments.length === 0) return empty;
  return sql(['', ...fragments.slice(1).map(() => separator), ''], ...fragments);
}

/** True for a fragment built by `sql`. */
export function isSqlFragment(value: unknown): value is SqlFragment {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'wpk.sql' && Array.isArray((value as SqlFragment).strings);
}

/**
 * The fragment as text with PostgreSQL's numbered parameters (`$n`, from `first`) and their values,
 * nested fragments flattened.
 */
export function compileSql(fragment: SqlFragment, first = 1): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const walk = (part: SqlFragment): string => {
    let text = part.strings[0]!;
    part.values.forEach((value, index) => {
      if (isSqlFragment(value)) text += walk(value);
      else {
        values.push(value);
        text += `$${first + values.length - 1}`;
      }
      text += part.strings[index + 1]!;
    });
    return text;
  };
  return { text: walk(fragment), values };
}
