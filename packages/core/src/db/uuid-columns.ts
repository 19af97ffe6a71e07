import { InvalidError, isUuid } from '@wpk/sdk';
import { DataTypes, Op, type Model, type ModelStatic } from 'sequelize';

/**
 * Ids are strings (specification, Resources › Conventions), but the records apps create carry
 * UUID columns, and PostgreSQL refuses a comparison of a uuid column with text that is no uuid
 * (22P02: a 500). Every app query through `ctx.db` therefore passes its conditions through here:
 * on a UUID column, a value that is no UUID matches nothing, exactly as a text comparison would,
 * so a look-up of an unknown id of any shape finds nothing and the app answers its 404.
 */

const columnsOf = new WeakMap<ModelStatic<Model>, ReadonlySet<string>>();

/** The model's UUID columns. */
export function uuidColumns(model: ModelStatic<Model>): ReadonlySet<string> {
  let columns = columnsOf.get(model);
  if (!columns) {
    columns = new Set(Object.entries(model.getAttributes()).filter(([, attribute]) => attribute.type instanceof DataTypes.UUID).map(([name]) => name));
    columnsOf.set(model, columns);
  }
  return columns;
}

const isPlainObject = (value: unknown): value is Record<string | symbol, unknown> => typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
const keepUuids = (values: unknown[]) => values.filter((value) => typeof value !== 'string' || isUuid(value));

// One column's condition: `= x`, `IN (...)`, or an object of operators.
function guardCondition(condition: unknown): unknown {
  if (typeof condition === 'string') return isUuid(condition) ? condition : { [Op.in]: [] };
  if (Array.isArray(condition)) return keepUuids(condition);
  if (!isPlainObject(condition)) return condition;
  const guarded: Record<string | symbol, unknown> = {};
  for (const key of Reflect.ownKeys(condition)) {
    const value = condition[key];
    if (key === Op.eq && typeof value === 'string' && !isUuid(value)) guarded[Op.in] = [];
    // `<> 'not-a-uuid'` holds for every row with a value, as it would for text.
    else if (key === Op.ne && typeof value === 'string' && !isUuid(value)) guarded[Op.ne] = null;
    else if ((key === Op.in || key === Op.notIn) && Array.isArray(value)) guarded[key] = keepUuids(value);
    else guarded[key] = value;
  }
  return guarded;
}

/** A where clause in which no UUID column is compared with a string that is not a UUID. */
export function uuidSafeWhere<W>(where: W, columns: ReadonlySet<string>): W {
  if (columns.size === 0) return where;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isPlainObject(node)) return node;
    const guarded: Record<string | symbol, unknown> = {};
    for (const key of Reflect.ownKeys(node)) {
      const value = node[key];
      // Symbol keys are Op.and / Op.or / Op.not: their members are where clauses again.
      guarded[key] = typeof key === 'symbol' ? walk(value) : columns.has(key) ? guardCondition(value) : value;
    }
    return guarded;
  };
  return walk(where) as W;
}

/** Refuses a write that would put a string that is not a UUID in a UUID column (400 naming the column). */
export function assertUuidValues(values: object, columns: ReadonlySet<string>): void {
  for (const [column, value] of Object.entries(values)) {
    if (columns.has(column) && typeof value === 'string' && !isUuid(value)) throw new InvalidError(`${column}: ${value} is not an id of this workspace`);
  }
}
