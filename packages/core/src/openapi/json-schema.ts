import type { Schema } from 'joi';
import parse from 'joi-to-json';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

/** joi's own types; any other type name comes from an extension (`Joi.extend`). */
const BASE_TYPES = new Set(['any', 'alternatives', 'array', 'boolean', 'binary', 'date', 'function', 'link', 'number', 'object', 'string', 'symbol']);

interface LiveSchema {
  type: string;
  $_terms?: Record<string, unknown>;
  [method: string]: unknown;
}

// An extension keeps its base's methods, so the methods tell the base type a custom type builds on.
function baseTypeOf(schema: LiveSchema): string {
  const has = (...names: string[]) => names.every((name) => typeof schema[name] === 'function');
  if (has('alphanum', 'email')) return 'string';
  if (has('integer', 'precision')) return 'number';
  if (has('items', 'sparse')) return 'array';
  if (has('keys', 'unknown')) return 'object';
  if (has('iso', 'timestamp')) return 'date';
  if (has('truthy', 'falsy')) return 'boolean';
  if (has('encoding')) return 'binary';
  if (has('try', 'match')) return 'alternatives';
  return 'any';
}

function isJoiSchema(value: unknown): value is LiveSchema {
  return typeof value === 'object' && value !== null && typeof (value as { describe?: unknown }).describe === 'function' && typeof (value as { type?: unknown }).type === 'string';
}

// Records, for every extension type in the tree, the joi type it builds on.
function collectCustomTypes(schema: unknown, found: Map<string, string>, seen = new Set<unknown>()): void {
  if (seen.has(schema) || typeof schema !== 'object' || schema === null) return;
  seen.add(schema);
  if (isJoiSchema(schema)) {
    if (!BASE_TYPES.has(schema.type) && !found.has(schema.type)) found.set(schema.type, baseTypeOf(schema));
    for (const term of Object.values(schema.$_terms ?? {})) collectCustomTypes(term, found, seen);
    return;
  }
  for (const value of Array.isArray(schema) ? schema : Object.values(schema)) collectCustomTypes(value, found, seen);
}

// Rewrites the description so each custom type reads as its base type (its rules are its base's).
function withBaseTypes(description: unknown, types: Map<string, string>): unknown {
  if (Array.isArray(description)) return description.map((item) => withBaseTypes(item, types));
  if (typeof description !== 'object' || description === null) return description;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(description)) copy[key] = withBaseTypes(value, types);
  if (typeof copy.type === 'string' && types.has(copy.type)) copy.type = types.get(copy.type);
  return copy;
}

const descriptions = new WeakMap<Schema, unknown>();

/**
 * A joi schema's description (`describe()`), once per schema object: the document describes a
 * schema shared by many routes once, and the member-reference check reads the same objects. joi's
 * `describe()` ends by validating its own output against joi's description schema, which was 80 %
 * of its cost (0.9 of 1.2 s of a document's build, measured with Tasks); the description is joi's
 * own, so that check is set aside while describing (synchronously: nothing else runs meanwhile).
 * The description is shared: read it, never change it.
 */
export function describeSchema(schema: Schema): unknown {
  let description = descriptions.get(schema);
  if (description === undefined) {
    const root = (schema as unknown as { $_root: { assert: (...args: unknown[]) => void } }).$_root;
    const assert = root.assert;
    root.assert = () => undefined;
    try {
      description = schema.describe();
    } finally {
      root.assert = assert;
    }
    descriptions.set(schema, description);
  }
  return description;
}

/**
 * The JSON Schema of a joi schema, read through `describe()` by joi-to-json (OpenAPI 3.1 mode).
 * Types added by joi extensions are described as the joi type they build on (a platform id is a
 * string with its bounds); `components` collects schemas named with `.id()`. Objects accept
 * extra properties, as the server validates requests (`allowUnknown`: they are dropped).
 */
export function joiToJsonSchema(schema: Schema, components: Record<string, JsonSchema> = {}, options: { closed?: boolean } = {}): JsonSchema {
  const types = new Map<string, string>();
  collectCustomTypes(schema, types);
  // A copy either way: joi-to-json may write into what it reads, and the description is shared.
  const description = withBaseTypes(describeSchema(schema), types);
  // joi-to-json reads a schema only through describe(); a stand-in with that one method is enough, hence the cast.
  // joi-to-json fills `components` with the schemas named by `.id()` and also copies them all into
  // the result under `schemas`: they belong in the document's components only.
  const { schemas: _named, ...json } = parse({ describe: () => description } as unknown as Schema, 'open-api-3.1', components) as JsonSchema;
  return openApiShape(json, options.closed === true) as JsonSchema;
}

const SUBSCHEMA_KEYS = new Set(['if', 'then', 'else', 'not', 'contains', 'items']);
const SUBSCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

// `true`/`false` are JSON Schemas, but OpenAPI tools expect objects there: `{}` and `{ not: {} }`
// say the same. In a request schema `additionalProperties: false` goes: the server drops unknown
// keys, never refuses them. An answered record (`closed`) keeps it: the record has exactly its fields.
function openApiShape(schema: unknown, closed: boolean): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  if (Array.isArray(schema)) return schema.map((item) => openApiShape(item, closed));
  const asObject = (value: unknown) => (value === true ? {} : value === false ? { not: {} } : openApiShape(value, closed));
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false) {
      if (closed) copy[key] = false;
      continue;
    }
    if (SUBSCHEMA_KEYS.has(key)) copy[key] = asObject(value);
    else if (SUBSCHEMA_LISTS.has(key) && Array.isArray(value)) copy[key] = value.map(asObject);
    else if (key === 'properties' && typeof value === 'object' && value !== null) copy[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, asObject(property)]));
    else copy[key] = openApiShape(value, closed);
  }
  // joi's greater()/less() come out with the inclusive bound beside the exclusive one; the exclusive
  // bound alone says it (and tools reject the mix).
  if (typeof copy.exclusiveMinimum === 'number' && typeof copy.minimum === 'number' && copy.minimum <= copy.exclusiveMinimum) delete copy.minimum;
  if (typeof copy.exclusiveMaximum === 'number' && typeof copy.maximum === 'number' && copy.maximum >= copy.exclusiveMaximum) delete copy.maximum;
  return copy;
}
