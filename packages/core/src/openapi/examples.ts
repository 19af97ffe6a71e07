import Ajv2020 from 'ajv/dist/2020.js';
import type { JsonSchema } from './json-schema.js';

const DEPTH = 4;

function typeOf(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return type.find((item) => item !== 'null') as string | undefined;
  return type as string | undefined;
}

/**
 * A small example body that satisfies a request schema (every bound respected), or undefined when
 * one cannot be made without guessing (a pattern, an unknown format): no example beats a wrong one.
 */
export function exampleOf(schema: JsonSchema, components: Record<string, JsonSchema>, depth = 0): unknown {
  if (depth > DEPTH) return undefined;
  if (typeof schema.$ref === 'string') {
    const target = components[schema.$ref.split('/').pop()!];
    return target ? exampleOf(target, components, depth + 1) : undefined;
  }
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null);
  if ('const' in schema) return schema.const;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      for (const option of options) {
        const value = exampleOf(option as JsonSchema, components, depth + 1);
        if (value !== undefined) return value;
      }
      return undefined;
    }
  }
  switch (typeOf(schema)) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required ?? []) as string[]);
      const example: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) {
        const value = exampleOf(property, components, depth + 1);
        if (value === undefined && required.has(name)) return undefined;
        if (value !== undefined) example[name] = value;
      }
      return example;
    }
    case 'array': {
      const minItems = Number(schema.minItems ?? 0);
      if (minItems === 0) return [];
      const item = schema.items ? exampleOf(schema.items as JsonSchema, components, depth + 1) : undefined;
      if (item === undefined || minItems > 1) return undefined;
      return [item];
    }
    case 'string': {
      if (schema.pattern) return undefined;
      const format = schema.format as string | undefined;
      if (format === 'uuid') return '6f1c0c1e-3f7a-4a53-9d1c-2b8f9e1d0a11';
      if (format === 'email') return 'ada@example.com';
      if (format === 'date') return '2026-11-01';
      if (format === 'date-time') return '2026-11-01T09:00:00.000Z';
      if (format === 'uri') return 'https://example.com/';
      if (format) return undefined;
      const min = Number(schema.minLength ?? 1);
      const max = Number(schema.maxLength ?? Infinity);
      const word = 'example';
      if (min > max || min > 200) return undefined;
      return word.length >= min && word.length <= max ? word : 'x'.repeat(Math.max(min, 1)).slice(0, max);
    }
    case 'integer':
    case 'number': {
      const minimum = schema.minimum as number | undefined;
      const maximum = schema.maximum as number | undefined;
      const value = minimum ?? (maximum !== undefined ? Math.min(maximum, 1) : 1);
      return typeOf(schema) === 'integer' ? Math.ceil(value) : value;
    }
    case 'boolean':
      return true;
    default:
      return undefined;
  }
}

let ajv: Ajv2020 | null = null;
// Each document is built many times per process (every runtime of a test run): compile once.
const compiled = new Map<string, ReturnType<Ajv2020['compile']>>();

export const COMPONENT = '#/components/schemas/';

/** The components a schema reaches through `$ref`, directly or through other components. */
export function reachedComponents(schema: unknown, components: Record<string, JsonSchema>, found: Record<string, JsonSchema> = {}): Record<string, JsonSchema> {
  if (Array.isArray(schema)) {
    for (const item of schema) reachedComponents(item, components, found);
  } else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT)) {
        const name = value.slice(COMPONENT.length);
        if (!(name in found) && components[name]) {
          found[name] = components[name];
          reachedComponents(components[name], components, found);
        }
      } else {
        reachedComponents(value, components, found);
      }
    }
  }
  return found;
}

/** An example of the schema that the schema accepts (checked with ajv), or undefined. */
export function checkedExample(schema: JsonSchema, components: Record<string, JsonSchema>): unknown {
  const example = exampleOf(schema, components);
  if (example === undefined) return undefined;
  ajv ??= new Ajv2020({ strict: false, validateFormats: false });
  // Component references point into the document; check against a copy that carries the ones it
  // reaches (not all of them: a document of every app holds hundreds).
  const standalone = { ...schema, $defs: reachedComponents(schema, components) };
  const text = JSON.stringify(standalone).replaceAll(`"${COMPONENT}`, '"#/$defs/');
  try {
    let validate = compiled.get(text);
    if (!validate) {
      validate = ajv.compile(JSON.parse(text));
      compiled.set(text, validate);
    }
    return validate(example) ? example : undefined;
  } catch {
    return undefined;
  }
}
