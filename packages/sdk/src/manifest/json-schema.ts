import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** A failed JSON Schema rule: where (`greeting.text`, `items[2]`) and what. */
export interface SchemaProblem {
  /** Dotted path with [index] for arrays; empty for the document itself. */
  path: string;
  /** What is wrong, e.g. `must be string`. */
  message: string;
}

/** Creates the Ajv instance used for app-declared schemas (draft-07, every error, unknown keywords refused). */
export function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictTuples: false, strictRequired: false, useDefaults: false });
  addFormats(ajv);
  return ajv;
}

function decodePointer(pointer: string): string[] {
  if (!pointer) return [];
  return pointer.slice(1).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Joins path segments as `a.b[2].c`; numeric segments become indexes. */
export function joinPath(base: string, segments: Array<string | number>): string {
  let path = base;
  for (const segment of segments) {
    if (typeof segment === 'number' || /^\d+$/.test(segment)) path += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) path += path ? `.${segment}` : segment;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

/** Turns Ajv errors into problems with readable paths under `base`. */
export function formatSchemaErrors(errors: ErrorObject[] | null | undefined, base = ''): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors ?? []) {
    const segments: Array<string | number> = decodePointer(error.instancePath);
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'required') {
      segments.push((error.params as { missingProperty: string }).missingProperty);
      message = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      segments.push((error.params as { additionalProperty: string }).additionalProperty);
      message = 'is not allowed here';
    } else if (error.keyword === 'enum') {
      message = `must be one of: ${(error.params as { allowedValues: unknown[] }).allowedValues.map((value) => String(value)).join(', ')}`;
    }
    const problem = { path: joinPath(base, segments), message };
    const key = `${problem.path}\u0000${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems;
}

let shared: Ajv | null = null;
const compiledByText = new Map<string, { validate: ValidateFunction } | { error: string }>();

/**
 * Compiles a JSON Schema; returns the validator or the reason it does not compile. Without an
 * `ajv` of the caller's, one instance serves the process and a schema of the same text compiles
 * once (every runtime of a test run validates the same manifests); a schema that names an `$id`
 * gets an instance of its own, as two of them may name the same one.
 */
export function compileJsonSchema(schema: unknown, ajv?: Ajv): { validate: ValidateFunction } | { error: string } {
  const compile = (instance: Ajv): { validate: ValidateFunction } | { error: string } => {
    try {
      return { validate: instance.compile(schema as object) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  if (ajv) return compile(ajv);
  const text = JSON.stringify(schema);
  if (text === undefined || text.includes('"$id"')) return compile(createAjv());
  let result = compiledByText.get(text);
  if (!result) {
    result = compile((shared ??= createAjv()));
    compiledByText.set(text, result);
  }
  return result;
}

/**
 * Validates `value` against a JSON Schema and returns every problem, paths under `base`
 * (e.g. `jsonSchemaProblems(schema, doc, 'settings')` → `settings.theme: must be string`).
 * Throws when the schema itself does not compile.
 */
export function jsonSchemaProblems(schema: unknown, value: unknown, base = ''): SchemaProblem[] {
  const compiled = compileJsonSchema(schema);
  if ('error' in compiled) throw new Error(`The schema does not compile: ${compiled.error}`);
  if (compiled.validate(value)) return [];
  return formatSchemaErrors(compiled.validate.errors, base);
}

/** One line for a problem: `path: message`, or the message alone for the whole document. */
export function describeSchemaProblem(problem: SchemaProblem, root = 'body'): string {
  return `${problem.path || root}: ${problem.message}`;
}
