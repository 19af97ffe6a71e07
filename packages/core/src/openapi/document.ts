import type { RequestRoute } from '@hapi/hapi';
import type { Schema } from 'joi';
import { PLATFORM_NAMESPACE } from '../access/index.js';
import { API_VERSIONS } from '../server/index.js';
import { checkedExample } from './examples.js';
import { describeSchema, joiToJsonSchema, type JsonSchema } from './json-schema.js';

/** The version of the machine-readable description (the specification's "Versioning", rule 2). */
export const OPENAPI_DOCUMENT_VERSION = '1.0.0';

/** The session cookie's name, as the cookie security scheme declares it. */
const SESSION_COOKIE = 'wpk_session';

/** What the document is built from: the server's route table and the loaded apps. */
export interface OpenApiSource {
  /** `server.table()`: every route, core's and the apps'. */
  routes: readonly RequestRoute[];
  /** The loaded apps (one tag each). */
  apps: ReadonlyArray<{ namespace: string; name: string; version: string; description?: string }>;
  /** The base domain the server variable defaults to. */
  baseDomain: string;
}

/** Which operations to include: every one (default), or one app's (`tasks`, `account` for the platform's own). */
export interface OpenApiBuildOptions {
  app?: string;
}

/** An OpenAPI 3.1 document. */
export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: Record<string, Record<string, unknown>>;
  tags: Array<{ name: string; description: string }>;
};

/** One operation of the document, with the platform's extensions. */
export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  /** The permission chain a caller must pass (an app's authorization table, or the platform key). */
  'x-permissions': unknown[];
  /** Who may call it: `public`, `permission`, `caller`, `session`, `full-access`, `app`, `internal`. */
  'x-access': string;
  [extension: `x-${string}`]: unknown;
}

/** The tag of the platform's own operations, and of its operational endpoints. */
export const PLATFORM_TAG = PLATFORM_NAMESPACE;
export const SYSTEM_TAG = 'system';
/** The tag of the site and workspace pages (HTML, forms, fragments). */
export const WEB_TAG = 'web';

const BODY_METHODS = new Set(['post', 'put', 'patch']);
/** Operational routes that answer JSON of their own shape. */
const JSON_SYSTEM_ROUTES = new Set(['/health', '/openapi.json']);
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** `GET /boards/{board_id}/tasks` → `getBoardsByBoardIdTasks`: unique, because method + path is. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(\w+)[*?]?\d*\}$/.exec(segment);
      return param ? ['by', ...param[1].split('_')] : segment.split(/[^A-Za-z0-9]+/);
    })
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((word) => word[0].toUpperCase() + word.slice(1))].join('');
}

/** hapi's `{name*}` / `{name?}` become OpenAPI's `{name}`. */
function openApiPath(path: string): string {
  return path.replace(/\{(\w+)[*?]?\d*\}/g, '{$1}');
}

function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)[*?]?\d*\}/g)].map((match) => match[1]);
}

function isJoi(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && typeof (value as Schema).describe === 'function';
}

interface RouteFacts {
  method: string;
  path: string;
  kind: 'api' | 'page' | 'system';
  scope: 'workspace' | 'platform' | 'any';
  contentTypes: string[];
  isPublic: boolean;
  /** The app namespace of an app's route (null: the platform's own). */
  app: string | null;
  tag: string;
  access: string;
  permissions: unknown[];
  description?: string;
  validate: { params?: Schema; query?: Schema; payload?: Schema };
  /** Statuses the route declares besides the conventional ones (`wpk.errors`). */
  errors: string[];
  /** The record the route declares it answers with (`options.app.answers`, or an app route's `answers`). */
  answers?: EnvelopeAnswer | { file: string | readonly string[] } | { anyOf: EnvelopeAnswer[] };
}

type EnvelopeAnswer = { single: Schema } | { collection: Schema; alongside?: Record<string, Schema> };

function factsOf(route: RequestRoute): RouteFacts {
  const settings = route.settings;
  const meta = settings.app?.wpk ?? {};
  const appRoute = (settings.app as { wpkApp?: { namespace: string; chain: unknown[] | null } } | undefined)?.wpkApp;
  const platformAccess = settings.app?.platformAccess;
  // hapi keeps `auth: false` as false on the route's settings (the types do not say so).
  const auth = settings.auth as unknown as false | { mode?: string } | undefined;
  const isPublic = auth === false || auth?.mode === 'try';
  const kind = meta.kind ?? 'api';
  let access: string;
  let permissions: unknown[] = [];
  if (appRoute) {
    access = appRoute.chain === null ? 'public' : 'permission';
    permissions = appRoute.chain ?? [];
  } else if (isPublic) {
    // Broker endpoints (`/_broker/...`, `/_events/...`) are for the platform's own processes.
    access = kind === 'system' && route.path.startsWith('/_') ? 'internal' : 'public';
  } else if (platformAccess && platformAccess.includes('.')) {
    access = 'permission';
    permissions = [platformAccess];
  } else {
    access = platformAccess ?? 'full-access';
  }
  const validate = settings.validate ?? {};
  return {
    method: route.method.toLowerCase(),
    path: route.path,
    kind,
    scope: meta.scope ?? 'workspace',
    contentTypes: meta.contentTypes ?? ['application/json'],
    isPublic,
    app: appRoute?.namespace ?? null,
    tag: appRoute ? appRoute.namespace : kind === 'system' ? SYSTEM_TAG : kind === 'page' ? WEB_TAG : PLATFORM_TAG,
    access,
    permissions,
    description: settings.description,
    errors: [...(meta.errors ?? [])],
    answers: settings.app?.answers,
    validate: {
      params: isJoi(validate.params) ? validate.params : undefined,
      query: isJoi(validate.query) ? validate.query : undefined,
      payload: isJoi(validate.payload) ? validate.payload : undefined,
    },
  };
}

/** The properties of an object schema, each as a parameter. */
function parametersFrom(schema: Schema | undefined, where: 'path' | 'query', components: Record<string, JsonSchema>): Map<string, { required: boolean; schema: JsonSchema; description?: string }> {
  const found = new Map<string, { required: boolean; schema: JsonSchema; description?: string }>();
  if (!schema) return found;
  const json = joiToJsonSchema(schema, components);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  for (const [name, property] of Object.entries(properties)) {
    const { description, ...rest } = property;
    found.set(name, { required: where === 'path' || required.has(name), schema: rest, description: description as string | undefined });
  }
  return found;
}

function errorStatuses(facts: RouteFacts): string[] {
  // Public routes answer 401/403 too (a wrong password, a spent invitation).
  const statuses = ['400', '401', '403', '404', '408'];
  if (facts.method !== 'get') statuses.push('409');
  // hapi reads a DELETE's body too: too large or of another type, it is refused like a POST's.
  if (BODY_METHODS.has(facts.method) || facts.method === 'delete') statuses.push('413', '415');
  statuses.push('429', '500', '503', ...facts.errors);
  return statuses.sort();
}

const ERROR_RESPONSES: Record<string, string> = {
  '400': 'BadRequest',
  '401': 'Unauthorized',
  '402': 'PaymentRequired',
  '403': 'Forbidden',
  '404': 'NotFound',
  '408': 'RequestTimeout',
  '409': 'Conflict',
  '413': 'PayloadTooLarge',
  '415': 'UnsupportedMediaType',
  '429': 'TooManyRequests',
  '500': 'ServerError',
  '502': 'BadGateway',
  '503': 'Unavailable',
};

/** The 200 answer of an API route that declares its record: the envelope with that record in it. */
function declaredAnswer(facts: RouteFacts, answers: NonNullable<RouteFacts['answers']>, components: Record<string, JsonSchema>): unknown {
  const headers = { 'X-Request-Id': ref('headers', 'RequestId'), 'X-Api-Version': ref('headers', 'ApiVersion') };
  if ('file' in answers) {
    // One media type, or each of several (an export by format): every one is a content entry of its own.
    const types = [...new Set((typeof answers.file === 'string' ? [answers.file] : answers.file).map((type) => type.split(';')[0].trim()))];
    const download = { description: 'attachment; filename="…": the name a browser saves the file as', schema: { type: 'string' } };
    const content = Object.fromEntries(types.map((type) => [type, { schema: { type: 'string' } }]));
    return { description: `Success: the ${types.join(' or ')} document itself (not an envelope).`, headers: { ...headers, 'Content-Disposition': download }, content };
  }
  if ('anyOf' in answers) {
    const schemas = answers.anyOf.map((answer) => envelopeSchema(answer, components));
    return { description: 'Success: one of the envelopes below.', headers, content: { 'application/json': { schema: { anyOf: schemas } } } };
  }
  const description = 'single' in answers ? 'Success: one resource.' : 'Success: one page of the collection.';
  return { description, headers, content: { 'application/json': { schema: envelopeSchema(answers, components) } } };
}

/** The envelope with the declared record in it (and, for a collection, the keys declared beside it). */
function envelopeSchema(answer: EnvelopeAnswer, components: Record<string, JsonSchema>): JsonSchema {
  if ('single' in answer) {
    const record = joiToJsonSchema(answer.single, components, { closed: true });
    return { type: 'object', required: ['data', 'links'], properties: { data: record, links: ref('schemas', 'Links') } };
  }
  const record = joiToJsonSchema(answer.collection, components, { closed: true });
  const alongside = Object.entries(answer.alongside ?? {}).map(([name, schema]) => [name, joiToJsonSchema(schema, components, { closed: true })] as const);
  return {
    type: 'object',
    required: ['data', 'pagination', 'links', ...alongside.map(([name]) => name)],
    properties: { data: { type: 'array', items: record }, pagination: ref('schemas', 'Pagination'), links: ref('schemas', 'CollectionLinks'), ...Object.fromEntries(alongside) },
  };
}

function successResponse(facts: RouteFacts, components: Record<string, JsonSchema>): unknown {
  if (facts.kind === 'api' && facts.answers) return declaredAnswer(facts, facts.answers, components);
  if (facts.kind === 'api') return ref('responses', facts.app ? 'AppOk' : 'Ok');
  if (facts.path === '/health') {
    return {
      description: 'The server and its database answer',
      content: { 'application/json': { schema: ref('schemas', 'Health'), example: { status: 'ok', database: 'ok' } } },
    };
  }
  if (facts.path === '/openapi.json') {
    const schema = { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } } };
    return { description: 'This document', content: { 'application/json': { schema } } };
  }
  if (facts.kind === 'page' || (facts.kind === 'system' && facts.method === 'get')) {
    return { description: 'A page, a page fragment or a file (not an envelope)', content: { 'text/html': { schema: { type: 'string' } }, 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
  }
  return { description: 'Accepted', content: { 'application/json': { schema: { type: 'object' } } } };
}

function securityOf(facts: RouteFacts): Array<Record<string, string[]>> {
  if (facts.isPublic) return [];
  if (facts.access === 'session') return [{ sessionCookie: [] }];
  return [{ apiKey: [] }, { sessionCookie: [] }];
}

const ACCESS_NOTES: Record<string, string> = {
  public: 'Public: no credential.',
  internal: 'Internal: called by the platform itself (signed broker deliveries), not by API clients.',
  caller: 'Any credential of a member (no permission needed).',
  session: 'A browser session only: every API key is refused.',
  'full-access': 'A session or a full-access API key of an owner or admin; a scoped key is refused.',
  app: "Gated by the searched app's own access and permissions.",
};

function operationOf(facts: RouteFacts, components: Record<string, JsonSchema>): OpenApiOperation {
  const parameters: unknown[] = [];
  const pathParams = parametersFrom(facts.validate.params, 'path', components);
  for (const name of pathParameterNames(facts.path)) {
    const declared = pathParams.get(name);
    parameters.push({ name, in: 'path', required: true, ...(declared?.description ? { description: declared.description } : {}), schema: declared?.schema ?? { type: 'string' } });
  }
  for (const [name, declared] of parametersFrom(facts.validate.query, 'query', components)) {
    // Routes accept any page/per_page (the platform forgives malformed ones); clients send integers.
    if (name === 'page' || name === 'per_page') parameters.push(ref('parameters', name === 'page' ? 'Page' : 'PerPage'));
    else parameters.push({ name, in: 'query', required: declared.required, ...(declared.description ? { description: declared.description } : {}), schema: declared.schema });
  }
  if (facts.kind === 'api') parameters.push(ref('parameters', 'ApiVersion'));

  const operation: OpenApiOperation = {
    operationId: operationIdOf(facts.method, facts.path),
    tags: [facts.tag],
    summary: summaryOf(facts),
    description: [facts.description, accessNote(facts)].filter(Boolean).join('\n\n'),
    security: securityOf(facts),
    ...(parameters.length ? { parameters } : {}),
    responses: {},
    'x-permissions': facts.permissions,
    'x-access': facts.access,
  };
  if (facts.scope === 'platform') operation['x-served-on'] = 'base domain';
  else if (facts.scope === 'workspace') operation['x-served-on'] = 'workspace subdomain';
  else operation['x-served-on'] = 'base domain and workspace subdomains';

  if (BODY_METHODS.has(facts.method) || (facts.method === 'delete' && facts.validate.payload)) {
    operation.requestBody = requestBodyOf(facts, components);
  }
  operation.responses['200'] = successResponse(facts, components);
  if (facts.kind === 'page') {
    // Pages redirect: to /login without a session, and after a form is posted.
    for (const status of ['302', '303']) operation.responses[status] = { description: 'A redirect (to /login without a session; after a posted form)', headers: { Location: { schema: { type: 'string' } } } };
  }
  // Pages and files answer conditional requests.
  if (facts.kind !== 'api' && facts.method === 'get' && !JSON_SYSTEM_ROUTES.has(facts.path)) operation.responses['304'] = { description: 'Not modified' };
  for (const status of errorStatuses(facts)) operation.responses[status] = ref('responses', ERROR_RESPONSES[status]);
  return operation;
}

function summaryOf(facts: RouteFacts): string {
  const line = facts.description?.split('\n')[0]?.trim();
  if (line) return line.length > 120 ? `${line.slice(0, 117)}...` : line;
  return `${facts.method.toUpperCase()} ${facts.path}`;
}

function accessNote(facts: RouteFacts): string {
  if (facts.access === 'permission') return `Needs ${facts.permissions.map((step) => (typeof step === 'string' ? `\`${step}\`` : `\`${JSON.stringify(step)}\``)).join(', then ')}.`;
  return ACCESS_NOTES[facts.access] ?? '';
}

function requestBodyOf(facts: RouteFacts, components: Record<string, JsonSchema>): unknown {
  if (facts.kind !== 'page' && !facts.contentTypes.includes('application/json')) {
    // A binary upload (avatars, signed upload links): the body is the file itself.
    return { required: true, content: Object.fromEntries(facts.contentTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])) };
  }
  if (!facts.validate.payload) {
    return { required: false, content: { 'application/json': { schema: { type: 'object', additionalProperties: true, description: 'Read by the handler itself (no declared schema).' } } } };
  }
  const schema = joiToJsonSchema(facts.validate.payload, components);
  const presence = (describeSchema(facts.validate.payload) as { flags?: { presence?: string } }).flags?.presence;
  const example = checkedExample(schema, components);
  return {
    required: presence === 'required',
    content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
  };
}

/**
 * The OpenAPI 3.1 document of a server: one operation per route of its table (core's and every
 * loaded app's), request schemas from the routes' own joi schemas, the envelopes and the error
 * body as shared components, both credentials as security schemes, the `X-Api-Version` header,
 * the workspace server variable, and each operation's permissions as `x-permissions`.
 */
export function buildOpenApiDocument(source: OpenApiSource, options: OpenApiBuildOptions = {}): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  const facts = source.routes.map(factsOf).filter((route) => !options.app || route.tag === options.app);
  if (options.app && facts.length === 0) throw new Error(`No operations of ${options.app}: known are ${[PLATFORM_TAG, WEB_TAG, SYSTEM_TAG, ...source.apps.map((app) => app.namespace)].join(', ')}`);
  const ordered = [...facts].sort((a, b) => a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
  for (const route of ordered) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = operationOf(route, schemas);
  }
  const used = new Set(facts.map((route) => route.tag));
  const tags = [
    { name: PLATFORM_TAG, description: 'The platform: identity, members, roles, API keys, apps, notifications, search.' },
    ...source.apps.map((app) => ({ name: app.namespace, description: app.description ?? `${app.name} (version ${app.version}).` })),
    { name: WEB_TAG, description: 'Site and workspace pages: HTML, forms, `/partials/*` fragments.' },
    { name: SYSTEM_TAG, description: 'Operational endpoints: health, static files, broker deliveries.' },
  ].filter((tag) => used.has(tag.name));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Workspace Platform API',
      version: OPENAPI_DOCUMENT_VERSION,
      description: INFO_DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: 'https://{workspace}.{base}',
        description: 'A workspace: every workspace is served on its own subdomain',
        variables: { workspace: { default: 'acme', description: "The workspace's subdomain" }, base: { default: source.baseDomain, description: 'The platform base domain' } },
      },
      { url: 'https://{base}', description: 'The base domain (sign-up, this document)', variables: { base: { default: source.baseDomain } } },
    ],
    security: [{ apiKey: [] }, { sessionCookie: [] }],
    tags,
    paths,
    components: { schemas: { ...sharedSchemas(), ...schemas }, parameters: sharedParameters(), headers: sharedHeaders(), responses: sharedResponses(), securitySchemes: SECURITY_SCHEMES },
  };
}

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];

const INFO_DESCRIPTION = [
  'Every operation of the platform and of its loaded apps, generated from the routes themselves.',
  'Every request sends `X-Api-Version` (a date, `YYYY-MM-DD`) on API operations; bodies are JSON.',
  'Successful API answers are one of the two envelopes; every failure is `{"error": "..."}`, with `"field"` naming the input when one input is refused.',
  '`x-permissions` lists the permission chain an operation needs; `x-access` says who may call it.',
].join('\n\n');

const SECURITY_SCHEMES = {
  apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'slk_...', description: 'A workspace API key: `Authorization: Bearer slk_...`. Judged on the key alone (never retried with the cookie).' },
  sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'A browser session (the cookie set by POST /sessions); cross-subdomain calls must send credentials.' },
};

function sharedSchemas(): Record<string, JsonSchema> {
  return {
    Error: {
      type: 'object',
      description: 'Every failure: the message names what is wrong; a refusal of one input names it in `field` too.',
      required: ['error'],
      properties: {
        error: { type: 'string' },
        field: { type: 'string', description: 'The input the refusal is about, as a path into the request: `title`, `address.city`, `items[0].amount` (object keys joined by `.`, array indexes in brackets; a query or path parameter by its name). Absent when the refusal is not about one input.' },
      },
      examples: [{ error: 'Missing permission: tasks.tasks.read' }, { error: 'title is not allowed to be empty', field: 'title' }],
    },
    Links: {
      type: 'object',
      description: '`self`, plus any relationship links.',
      required: ['self'],
      properties: { self: { type: 'string' } },
      additionalProperties: { type: 'string' },
    },
    SingleEnvelope: {
      type: 'object',
      description: 'One resource.',
      required: ['data', 'links'],
      properties: { data: { type: 'object', additionalProperties: true }, links: ref('schemas', 'Links') },
      examples: [{ data: { id: '6f1c0c1e-3f7a-4a53-9d1c-2b8f9e1d0a11' }, links: { self: '/tasks/6f1c0c1e-3f7a-4a53-9d1c-2b8f9e1d0a11' } }],
    },
    Pagination: {
      type: 'object',
      required: ['page', 'per_page', 'total', 'pages'],
      properties: { page: { type: 'integer', minimum: 1 }, per_page: { type: 'integer', minimum: 1, maximum: 100 }, total: { type: 'integer', minimum: 0 }, pages: { type: 'integer', minimum: 0 } },
    },
    CollectionLinks: {
      type: 'object',
      description: 'Following `next` until it is null walks the whole collection.',
      required: ['self', 'first', 'last', 'next', 'prev'],
      properties: { self: { type: 'string' }, first: { type: 'string' }, last: { type: 'string' }, next: { type: ['string', 'null'] }, prev: { type: ['string', 'null'] } },
    },
    CollectionEnvelope: {
      type: 'object',
      description: 'One page of a collection.',
      required: ['data', 'pagination', 'links'],
      properties: { data: { type: 'array', items: {} }, pagination: ref('schemas', 'Pagination'), links: ref('schemas', 'CollectionLinks') },
      examples: [{ data: [], pagination: { page: 1, per_page: 25, total: 0, pages: 0 }, links: { self: '/tasks?page=1&per_page=25', first: '/tasks?page=1&per_page=25', last: '/tasks?page=1&per_page=25', next: null, prev: null } }],
    },
    Envelope: { description: 'A successful API answer: one resource, or one page of a collection.', anyOf: [ref('schemas', 'SingleEnvelope'), ref('schemas', 'CollectionEnvelope')] },
    // Any JSON value: the platform does not hold an app's handler to the envelopes.
    AppAnswer: { description: "An app's answer: an envelope (`SingleEnvelope` or `CollectionEnvelope`) when the app answers with `ctx.respond`, as every first-party app does; otherwise the body its handler returned." },
    Health: {
      type: 'object',
      required: ['status', 'database'],
      properties: { status: { type: 'string', enum: ['ok'] }, database: { type: 'string', enum: ['ok'] } },
    },
  };
}

function sharedParameters() {
  const released = API_VERSIONS.map((version) => version.date);
  return {
    Page: { name: 'page', in: 'query', required: false, description: 'The page, from 1 (default 1; a malformed value means 1).', schema: { type: 'integer', minimum: 1, default: 1 } },
    PerPage: { name: 'per_page', in: 'query', required: false, description: 'Items per page, 1-100 (default 25; larger values mean 100).', schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
    ApiVersion: {
      name: 'X-Api-Version',
      in: 'header',
      required: true,
      description: `The API version, a date (YYYY-MM-DD): the newest version released on or before it is used. A missing, malformed, earlier or future date answers 400. Released versions: ${released.join(', ')}.`,
      schema: { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', examples: [released[released.length - 1]] },
      'x-released-versions': released,
    },
  };
}

function sharedHeaders() {
  return {
    RequestId: { description: 'The request id (also in the log line of the request).', schema: { type: 'string' } },
    ApiVersion: { description: 'The API version the answer is shaped for.', schema: { type: 'string', format: 'date' } },
    RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
  };
}

function sharedResponses() {
  const headers = { 'X-Request-Id': ref('headers', 'RequestId') };
  const error = (description: string, example: string | { error: string; field: string }, extra: Record<string, unknown> = {}) => ({
    description,
    headers: { ...headers, ...extra },
    content: { 'application/json': { schema: ref('schemas', 'Error'), example: typeof example === 'string' ? { error: example } : example } },
  });
  return {
    Ok: {
      description: 'Success: one resource, or one page of a collection.',
      headers: { ...headers, 'X-Api-Version': ref('headers', 'ApiVersion') },
      content: { 'application/json': { schema: ref('schemas', 'Envelope') } },
    },
    AppOk: {
      description: "Success: the app's answer. The SDK lets an app's handler answer any JSON body; apps that use `ctx.respond` (every first-party app) answer one of the envelopes.",
      headers: { ...headers, 'X-Api-Version': ref('headers', 'ApiVersion') },
      content: { 'application/json': { schema: ref('schemas', 'AppAnswer') } },
    },
    BadRequest: error('The request is malformed: a field breaks its rule (`field` names it), or X-Api-Version is missing or unsupported.', { error: 'title is not allowed to be empty', field: 'title' }),
    Unauthorized: error('No valid credential.', 'Authentication required'),
    Forbidden: error('The credential may not do this (access layers 2-5).', 'Missing permission: tasks.tasks.read'),
    NotFound: error('No such resource here (or the route is served on another host).', 'Task not found'),
    RequestTimeout: error('The client took too long to send the request.', 'Request Timeout'),
    Conflict: error('The request conflicts with the current state.', 'A record with this name already exists'),
    PayloadTooLarge: error('The body is larger than the limit.', 'Payload content length greater than maximum allowed: 1048576'),
    UnsupportedMediaType: error('The body is not of an accepted media type.', 'Unsupported Media Type'),
    TooManyRequests: error('Too many requests: wait as long as Retry-After says.', 'Too many requests', { 'Retry-After': ref('headers', 'RetryAfter') }),
    ServerError: error('An unexpected fault; the message carries the request id.', 'An unexpected error occurred (request id 1764057600000:host:1234:abcd:10000)'),
    Unavailable: error('A dependency (the database) is unreachable, or the server is busy: then it did nothing, and `Retry-After` says when to try again.', 'The server is busy: try again in a moment', { 'Retry-After': ref('headers', 'RetryAfter') }),
    PaymentRequired: error('The payment provider declined the card.', 'Your card was declined.'),
    BadGateway: error('A third party the platform called (the payment provider) failed or could not be reached.', 'The payment provider could not be reached; try again'),
  };
}
