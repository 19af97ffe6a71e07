import AjvModule, { type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { compileJsonSchema } from '@wpk/sdk/tooling';
import type { JsonSchema, ValidateFunction } from './types.js';

// ajv and ajv-formats are CommonJS; under ESM their default export sits on `.default`, which their
// types do not say: these two casts stay.
type AjvClass = typeof AjvModule;
const Ajv = ((AjvModule as unknown as { default?: AjvClass }).default ?? AjvModule) as AjvClass;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: InstanceType<AjvClass>) => void;

let shared: { ajv: InstanceType<AjvClass>; cache: Map<string, ValidateFunction> } | null = null;

/**
 * Compiles event payload schemas with ajv (all errors, standard formats), caching by content.
 * One ajv instance serves the whole process: compiling is the slow part, and the runtime's own
 * catalog is the same for every registry.
 */
export class SchemaCompiler {
  private readonly ajv: InstanceType<AjvClass>;
  private readonly cache: Map<string, ValidateFunction>;

  constructor() {
    if (!shared) {
      const ajv = new Ajv({ allErrors: true, strict: false });
      addFormats(ajv);
      shared = { ajv, cache: new Map() };
    }
    this.ajv = shared.ajv;
    this.cache = shared.cache;
  }

  /**
   * Compiles `schema`; throws with ajv's message when the schema itself is invalid. An app's event
   * schemas were compiled already, when its manifest was checked (`validateManifest`, the SDK's
   * strict instance, cached by text): that validator is taken, as strictness decides only what
   * compiles, not what validates, and compiling each schema twice was half a second of every boot
   * with 25 apps. A schema the strict instance refuses (core's own catalog is not held to it) is
   * compiled here.
   */
  compile(schema: JsonSchema): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.cache.get(key);
    if (!validate) {
      const strict = key.includes('"$id"') ? null : compileJsonSchema(schema);
      validate = strict && 'validate' in strict ? (strict.validate as ValidateFunction) : (this.ajv.compile(schema) as ValidateFunction);
      this.cache.set(key, validate);
    }
    return validate;
  }

  errorsText(errors: ErrorObject[] | null | undefined): string {
    return this.ajv.errorsText(errors, { dataVar: 'payload' });
  }
}
