import type { ValidateFunction } from 'ajv';
import { compileJsonSchema, createAjv, formatSchemaErrors, type SchemaProblem } from '../manifest/json-schema.js';

/**
 * Thrown by `ctx.events.stage` when a payload breaks the schema its manifest declares for the
 * action: a programming error of the app (the request answers 500, a delivery is not retried),
 * caught where the event is staged instead of when the broker refuses it later.
 */
export class EventPayloadError extends Error {
  constructor(
    /** The staged action. */
    readonly action: string,
    /** Every broken rule, each with its path in the payload (`task_id`, `changed_fields[0]`). */
    readonly problems: SchemaProblem[],
  ) {
    super(`${action}: the payload breaks its schema in the manifest: ${problems.map((problem) => `${problem.path || 'payload'} ${problem.message}`).join('; ')}`);
    this.name = 'EventPayloadError';
  }
}

/**
 * Removes object properties whose value is null or undefined, at any depth, as the platform does
 * before validating a payload ("null payload values are removed before validation"). Array
 * elements are kept.
 */
export function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => (item !== null && typeof item === 'object' ? withoutNulls(item) : item)) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item === null || item === undefined) continue;
    out[key] = typeof item === 'object' ? withoutNulls(item) : item;
  }
  return out as T;
}

/** Checks payloads against the schemas an app declares (manifest `events`). */
export interface PayloadChecker {
  /** Throws EventPayloadError when `payload` (nulls removed) breaks the schema of `action`; unknown actions pass (the caller checks declaration). */
  check(action: string, payload: Record<string, unknown>): void;
  /** The problems of `payload` for `action` (empty when it conforms or the action is not declared). */
  problems(action: string, payload: Record<string, unknown>): SchemaProblem[];
}

/**
 * Compiles the payload schema of each declared event once (lazily, on first use) and checks
 * payloads against it the way the broker does: nulls removed first, every problem named by path.
 */
export function payloadChecker(events: ReadonlyArray<{ action: string; schema: unknown }>): PayloadChecker {
  const schemas = new Map(events.map((event) => [event.action, event.schema]));
  const compiled = new Map<string, ValidateFunction>();
  let ajv: ReturnType<typeof createAjv> | null = null;
  const validator = (action: string): ValidateFunction | null => {
    if (!schemas.has(action)) return null;
    let validate = compiled.get(action);
    if (!validate) {
      ajv ??= createAjv();
      const result = compileJsonSchema(schemas.get(action), ajv);
      if ('error' in result) throw new Error(`${action}: its payload schema does not compile: ${result.error}`);
      validate = result.validate;
      compiled.set(action, validate);
    }
    return validate;
  };
  const problems = (action: string, payload: Record<string, unknown>): SchemaProblem[] => {
    const validate = validator(action);
    if (!validate || validate(withoutNulls(payload))) return [];
    return formatSchemaErrors(validate.errors);
  };
  return {
    problems,
    check(action, payload) {
      const found = problems(action, payload);
      if (found.length > 0) throw new EventPayloadError(action, found);
    },
  };
}
