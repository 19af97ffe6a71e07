import type { ResponseObject, Server } from '@hapi/hapi';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenApiDocument } from './document.js';
import { COMPONENT, reachedComponents } from './examples.js';
import type { JsonSchema } from './json-schema.js';

/** One answer that the document does not describe. */
export interface ResponseMismatch {
  /** `POST /tasks` as requested. */
  request: string;
  /** The operation's path template. */
  operation: string;
  status: number;
  problem: string;
}

/** The response check of a server: what it found, and a way to fail a test run on it. */
export interface ResponseValidation {
  /** Every mismatch so far, oldest first. */
  readonly mismatches: readonly ResponseMismatch[];
  /** Throws one error listing every mismatch (none: returns). */
  assertClean(): void;
}

// Validators are compiled once per process: every runtime of a test run shares them (by the text of
// the schema and the components it reaches). A document's own schema objects find theirs by
// identity, so an answer costs neither a serialisation nor a compilation.
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
const compiled = new Map<string, ValidateFunction>();
const bySchema = new WeakMap<object, WeakMap<object, ValidateFunction>>();

function validatorFor(schema: object, components: Record<string, JsonSchema>): ValidateFunction {
  let ofDocument = bySchema.get(components);
  if (!ofDocument) bySchema.set(components, (ofDocument = new WeakMap()));
  const known = ofDocument.get(schema);
  if (known) return known;
  // Component references point into the document; the schema is checked with those it reaches as `$defs`.
  const text = JSON.stringify({ ...schema, $defs: reachedComponents(schema, components) }).replaceAll(`"${COMPONENT}`, '"#/$defs/');
  let validate = compiled.get(text);
  if (!validate) {
    validate = ajv.compile(JSON.parse(text) as Record<string, unknown>);
    compiled.set(text, validate);
  }
  ofDocument.set(schema, validate);
  return validate;
}

function resolve<T>(document: OpenApiDocument, value: unknown): T {
  let current = value as { $ref?: string };
  while (current && typeof current.$ref === 'string') {
    const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(current.$ref) ?? [];
    current = (document.components[kind] as Record<string, unknown>)?.[name] as { $ref?: string };
  }
  return current as T;
}

const OPENAPI_PATH = (path: string) => path.replace(/\{(\w+)[*?]?\d*\}/g, '{$1}');

/** One answer as the check needs it: the route it came from, its status and its JSON body (or none). */
interface Answer {
  request: string;
  method: string;
  path: string;
  status: number;
  body: unknown;
}

function check(document: OpenApiDocument, answer: Answer): string | null {
  const operation = document.paths[OPENAPI_PATH(answer.path)]?.[answer.method];
  if (!operation) return 'the operation is not in the document';
  const declared = resolve<{ content?: Record<string, { schema?: unknown }> } | undefined>(document, operation.responses[String(answer.status)]);
  if (!declared) return `status ${answer.status} is not declared (declared: ${Object.keys(operation.responses).join(', ')})`;
  const schema = declared.content?.['application/json']?.schema;
  if (!schema || typeof schema !== 'object' || answer.body === undefined) return null;
  const validate = validatorFor(schema, document.components.schemas as Record<string, JsonSchema>);
  if (validate(answer.body)) return null;
  const error = validate.errors?.[0];
  return `body breaks the declared schema: ${error?.instancePath || '(root)'} ${error?.message ?? ''} (${JSON.stringify(answer.body).slice(0, 300)})`;
}

// A JSON copy of an object body; undefined for a view, a file, a stream, a buffer, text or no body.
function jsonBody(response: ResponseObject): unknown {
  const source = response.source;
  if (response.variety !== 'plain' || source === null || typeof source !== 'object' || Buffer.isBuffer(source) || typeof (source as { pipe?: unknown }).pipe === 'function') return undefined;
  return JSON.parse(JSON.stringify(source));
}

/**
 * Checks every answer of a server against its own OpenAPI document, for tests (routes tagged
 * `fixture` excepted): the status must be one the operation declares and a JSON body must match
 * the declared schema (the envelope, or the error body). Mismatches are recorded, not answered: a
 * test run fails on them through `assertClean()` (the test harnesses call it when they close).
 * `document` is read once now (build the runtime first); answers of routes added since are
 * checked in `assertClean()` against a fresh document, so no answer waits for one to be built.
 */
export function installResponseValidation(server: Server, document: () => OpenApiDocument): ResponseValidation {
  const mismatches: ResponseMismatch[] = [];
  const later: Answer[] = [];
  const current = document();
  // The envelope and error validators are compiled now, so no answer waits for them either.
  for (const name of ['Envelope', 'Error']) validatorFor({ $ref: `#/components/schemas/${name}` }, current.components.schemas as Record<string, JsonSchema>);
  const record = (answer: Answer, problem: string | null) => {
    if (problem) mismatches.push({ request: answer.request, operation: `${answer.method.toUpperCase()} ${answer.path}`, status: answer.status, problem });
  };
  server.ext('onPreResponse', (request, h) => {
    const response = request.response;
    // hapi's own answers for unknown routes and CORS preflights belong to no operation; routes a
    // test adds as fixtures (tagged `fixture`) exercise answers no operation gives.
    if (request.method === 'options' || (request.route.method as string) === '_special' || request.route.settings.tags?.includes('fixture')) return h.continue;
    const label = `${request.method.toUpperCase()} ${request.path}`;
    if ('isBoom' in response && response.isBoom) {
      mismatches.push({ request: label, operation: request.route.path, status: response.output.statusCode, problem: 'an error reached the client without the conventions turning it into an {"error"} answer' });
      return h.continue;
    }
    const answered = response as ResponseObject;
    const answer: Answer = { request: label, method: request.route.method, path: request.route.path, status: answered.statusCode, body: jsonBody(answered) };
    if (current.paths[OPENAPI_PATH(answer.path)]?.[answer.method]) record(answer, check(current, answer));
    else later.push(answer);
    return h.continue;
  });
  return {
    mismatches,
    assertClean() {
      if (later.length) {
        const fresh = document();
        for (const answer of later.splice(0)) record(answer, check(fresh, answer));
      }
      if (mismatches.length === 0) return;
      const lines = mismatches.map((mismatch) => `  ${mismatch.request} (${mismatch.operation}) answered ${mismatch.status}: ${mismatch.problem}`);
      throw new Error(`${mismatches.length} answer${mismatches.length === 1 ? '' : 's'} did not match the OpenAPI document:\n${lines.join('\n')}`);
    },
  };
}
