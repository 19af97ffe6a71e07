/**
 * The bad-input guard (guard-bad-input-*.test.ts): the malformed requests it sends to a route,
 * derived from the route's joi validation, and the run that checks every answer and the row
 * counts after it. Every route that takes a body, a query or a path parameter gets at least 25
 * malformed requests (wrong types per declared field, null, arrays and objects for strings, 1 MB
 * and 64 KB strings, NUL, lone surrogates, impossible dates, out-of-range numbers, `__proto__` /
 * `constructor` keys, 10,000-level nesting, invalid JSON, an empty body; long, SQL-ish, `../`
 * and non-UUID path ids), sent as the workspace owner (full access, so they reach validation and
 * handlers). None may answer 5xx; a 4xx carries a JSON `{"error": string}` and leaves every table
 * of `platform` and of each app's schema (the event outbox included) with the row counts it had.
 * A 2xx (extra properties are accepted; fields are optional) is fine, except for two variants with
 * one right answer: a JSON body with bytes that are not UTF-8 is a 400 naming the field, and a
 * blank name-like field (NAME_FIELDS) is a 400 naming it.
 */
import { randomUUID } from 'node:crypto';
import type { RequestRoute } from '@hapi/hapi';
import type { TestFn } from 'ava';
import {
  changedTables,
  described,
  fieldIds,
  fillPath,
  hostFor,
  paramSource,
  paramsOf,
  PNG,
  requiredQuery,
  rowCounter,
  sampleBody,
  seedWorkspace,
  startGuardRuntime,
  type GuardRuntime,
  type JoiDescription,
  type SeededWorkspace,
} from './guard.js';

/**
 * Rows a refused request may legitimately write: a refused sign-in, reset or verification attempt
 * is counted (that is the throttle), so its count rises on a 4xx by design.
 */
const MAY_CHANGE_ON_REFUSAL = new Set(['platform.throttle_counters']);

/**
 * Apps' mail (ctx.mail) leaves the outbox in the background after the request that queued it
 * committed, so its count may fall while a later, refused request runs; it must never rise.
 */
const DRAINS_IN_BACKGROUND = 'platform.mail_outbox';

const BODY_METHODS = new Set(['post', 'put', 'patch']);
const MB = 1024 * 1024;

/** One malformed request: what it breaks, and the request itself (path, query and body). */
export interface Variant {
  label: string;
  path: string;
  query?: string;
  contentType?: string;
  body?: string | Buffer;
  /** What the answer must be besides no 5xx and a JSON error (null: right), when the variant has one exact answer. */
  expect?: (status: number, body: unknown) => string | null;
}

/** Refusals that come before the input is read (the credential, the route's access): they may answer instead. */
const BEFORE_INPUT = new Set([401, 403]);

/** A 400 whose error names `field` (its own words after the name) and whose `field` is it. */
function namingRefusal(field: string): Variant['expect'] {
  return (status, body) => {
    if (BEFORE_INPUT.has(status)) return null;
    const got = body as { error?: unknown; field?: unknown } | null;
    return status === 400 && typeof got?.error === 'string' && got.error.startsWith(`${field} `) && got.field === field ? null : `expected 400 with an error naming ${field} and "field": ${JSON.stringify(field)}`;
  };
}

/** The exact 400 a variant must get, naming what is wrong (and the field it is about). */
function exactRefusal(error: string, field: string): Variant['expect'] {
  return (status, body) => {
    if (BEFORE_INPUT.has(status)) return null;
    const got = body as { error?: unknown; field?: unknown } | null;
    return status === 400 && got?.error === error && got.field === field && Object.keys(got).length === 2 ? null : `expected 400 {"error": ${JSON.stringify(error)}, "field": ${JSON.stringify(field)}}`;
  };
}

/** 10,000 levels of nesting, as JSON text. */
const DEEP_ARRAY = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;

/** A JSON object text: `extra` (raw `"key": value` text) first, then the sample body. */
function withRaw(extra: string, base: Record<string, unknown>): string {
  const rest = JSON.stringify(base).slice(1, -1);
  return `{${extra}${rest ? `,${rest}` : ''}}`;
}

/** A field's kind, as far as the malformed values go. */
type FieldKind = 'any' | 'string' | 'number' | 'date' | 'array';

/** Values that break a field, by the kinds they apply to, as raw JSON text (so 1e999 survives). */
const FIELD_VALUES: Array<[FieldKind, string, string]> = [
  ['any', 'null', 'null'],
  ['any', 'a number', '12345'],
  ['any', 'a boolean', 'true'],
  ['any', 'an array of strings', '["x","y"]'],
  ['any', 'an object', '{"a":1}'],
  ['any', 'a __proto__ object', '{"__proto__":{"polluted":true}}'],
  ['any', 'a 64 KB string', JSON.stringify('a'.repeat(64 * 1024))],
  ['any', 'a NUL character', JSON.stringify('a\u0000b')],
  ['any', 'a lone surrogate', '"a\\ud800b"'],
  ['any', 'SQL', JSON.stringify("' OR 1=1--")],
  ['string', 'an empty string', '""'],
  ['string', 'a blank string', '"   "'],
  ['string', 'a ../ path', JSON.stringify('../../etc/passwd')],
  ['string', 'an impossible date', '"2027-02-30"'],
  ['date', 'an impossible date', '"2027-02-30"'],
  ['date', 'an impossible instant', '"2027-02-30T10:00:00Z"'],
  ['date', 'a date out of range', '"99999-01-01"'],
  ['number', 'a negative number', '-1'],
  ['number', 'an out-of-range number (1e999)', '1e999'],
  ['number', 'an unsafe integer', '9007199254740993'],
  ['number', 'a fraction', '1.5'],
  ['array', 'an array holding null', '[null]'],
  ['array', 'an array holding a NUL string', JSON.stringify(['a\u0000b'])],
  ['array', 'an array of 10,000 items', JSON.stringify(Array.from({ length: 10_000 }, (_value, index) => `item-${index}`))],
];

/**
 * Fields that name or title something. When such a string field refuses an empty string (no
 * `allow('')`, not a closed set), it must refuse a blank one too ("  \t "): a 400 naming it, never
 * a record named with spaces. Any app's field of these names is held to it, present and future.
 */
export const NAME_FIELDS = new Set(['name', 'title', 'label', 'subject', 'display_name', 'first_name', 'last_name', 'new_name']);

/** True when `field` must refuse a blank value (see NAME_FIELDS). */
export function refusesBlank(name: string, field: JoiDescription): boolean {
  return NAME_FIELDS.has(name) && field.type === 'string' && field.flags?.only !== true && !(field.allow ?? []).includes('');
}

/** The kinds of malformed values a field gets (every field gets `any`). */
function kindsOf(name: string, field: JoiDescription): Set<FieldKind> {
  const kinds = new Set<FieldKind>(['any']);
  if (field.type === 'string') kinds.add(/date|_at$|^(after|before)$/.test(name) ? 'date' : 'string');
  if (field.type === 'date') kinds.add('date');
  if (field.type === 'number') kinds.add('number');
  if (field.type === 'array') kinds.add('array');
  return kinds;
}

/** Path ids that name nothing, in every shape an attacker tries (raw: already URL text). */
const PATH_VALUES: Array<[string, string]> = [
  ['a 24-hex id', '0123456789abcdef01234567'],
  ['a word', 'not-an-id'],
  ['a negative number', '-1'],
  ['1e999', '1e999'],
  ['a 5,000-character id', 'a'.repeat(5000)],
  ['SQL', encodeURIComponent("' OR 1=1--")],
  ['an encoded ../', encodeURIComponent('../../etc/passwd')],
  ['a dot-dot segment', '..%2F..%2F'],
  ['an encoded NUL', 'a%00b'],
  ['a lone surrogate (invalid UTF-8)', 'a%ED%A0%80b'],
  ['a malformed escape', '%E0%A4%A'],
  ['__proto__', '__proto__'],
  ['an unknown UUID', randomUUID()],
  ['a UUID with a suffix', `${randomUUID()}x`],
  ['an emoji', encodeURIComponent('😀')],
];

/** Query strings any route must survive (pagination included: malformed values fall back to defaults). */
const GENERIC_QUERIES: Array<[string, string]> = [
  ['a __proto__ query key', '__proto__[polluted]=1'],
  ['a constructor query key', 'constructor[prototype][polluted]=1'],
  ['an encoded NUL query key', '%00=1'],
  ['an invalid UTF-8 query value', 'q=%ED%A0%80'],
  ['malformed pagination', 'page=1e999&per_page=-1'],
  ['pagination as arrays', 'page=1&page=2&per_page[a]=1'],
  ['an 8,000-character query key', `${'k'.repeat(8000)}=1`],
  ['a malformed escape in the query', 'q=%E0%A4%A'],
];

/** Values for each declared query parameter (raw URL text). */
const QUERY_VALUES: Array<[string, (name: string) => string]> = [
  ['empty', (name) => `${name}=`],
  ['an 8,000-character value', (name) => `${name}=${'a'.repeat(8000)}`],
  ['an encoded NUL', (name) => `${name}=a%00b`],
  ['a lone surrogate (invalid UTF-8)', (name) => `${name}=a%ED%A0%80b`],
  ['an impossible date', (name) => `${name}=2027-02-30`],
  ['an out-of-range number', (name) => `${name}=1e999`],
  ['SQL', (name) => `${name}=${encodeURIComponent("' OR 1=1--")}`],
  ['repeated (an array)', (name) => `${name}=a&${name}=b`],
  ['bracketed (an object)', (name) => `${name}[a]=1`],
  ['a malformed escape', (name) => `${name}=%E0%A4%A`],
];

/** More values, for the first query parameter of a route that would otherwise get fewer than 25 variants. */
const MORE_QUERY_VALUES: Array<[string, (name: string) => string]> = [
  ['a negative number', (name) => `${name}=-1`],
  ['null', (name) => `${name}=null`],
  ['a boolean word', (name) => `${name}=true`],
  ['__proto__', (name) => `${name}=__proto__`],
  ['an encoded ../', (name) => `${name}=${encodeURIComponent('../../etc/passwd')}`],
  ['an emoji', (name) => `${name}=${encodeURIComponent('😀')}`],
  ['a 24-hex id', (name) => `${name}=0123456789abcdef01234567`],
  ['a UUID', (name) => `${name}=${randomUUID()}`],
  ['a huge page', () => 'page=99999999999999999999&per_page=99999999999999999999'],
  ['a fractional page', () => 'page=1.5&per_page=0.5'],
];

/**
 * Each method's routes are split into this many consecutive parts, one test each, so no single
 * test runs for minutes (ava gives up on a file when no test has finished for its timeout).
 */
const GUARD_PARTS = 3;

/** The methods the guard's tests take in turn; deletions last (they may remove what others need). */
export const GUARD_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Deletions that take away what every other route needs (the app, the workspace): last of all. */
const CLOSING_ROUTES = new Set(['delete /applications/{slug}/installations', 'delete /workspaces/{id}']);

/**
 * Every route that takes a body, a query or a path parameter. A variant that breaks only an
 * ignored part (an unknown query key) may succeed, so deletions run last, sub-resources before
 * their resource, and the app's uninstallation and the workspace's deletion last of all.
 */
export function guardedRoutes(env: GuardRuntime): RequestRoute[] {
  const order = (route: RequestRoute) => (CLOSING_ROUTES.has(`${route.method} ${route.path}`) ? 2000 : route.method === 'delete' ? 1000 - route.path.split('/').length : 0);
  return env.runtime.server
    .table()
    .filter((route) => route.method !== 'options')
    .filter((route) => BODY_METHODS.has(route.method) || described(route, 'payload') || described(route, 'query') || paramsOf(route.path).length > 0)
    .sort((x, y) => order(x) - order(y));
}

/** A's own values for a route's path parameters (so a variant of the body or query reaches its rule). */
function ownPath(a: SeededWorkspace, route: RequestRoute): Record<string, string> {
  const values: Record<string, string> = {};
  for (const param of paramsOf(route.path)) {
    const source = paramSource(route.path, param);
    values[param] = !source ? 'x' : 'fixed' in source ? source.fixed : a.ids[source.kind];
  }
  return values;
}

/** The malformed requests for one route. */
export function variantsFor(a: SeededWorkspace, route: RequestRoute): Variant[] {
  const variants: Variant[] = [];
  const own = ownPath(a, route);
  const path = fillPath(route.path, own);
  const payload = described(route, 'payload') as JoiDescription | undefined;
  const types = route.settings.app?.wpk?.contentTypes;
  const base = sampleBody(payload, fieldIds(a), true);
  const takesBody = BODY_METHODS.has(route.method) || payload !== undefined;
  const jsonBody = takesBody && (!types || types.includes('application/json'));
  const query = requiredQuery(route, fieldIds(a)).slice(1);
  // A site page answers a browser with an error page: its exact-answer variants are the API's only.
  const page = route.settings.app?.wpk?.kind === 'page';

  if (jsonBody) {
    const json = 'application/json';
    const baseText = JSON.stringify(base);
    const firstField = Object.keys(payload?.keys ?? {})[0] ?? 'field';
    const withoutFirst = JSON.stringify(Object.fromEntries(Object.entries(base).filter(([name]) => name !== firstField)));
    // Field by field first: a body-level variant that carries the sample body may be accepted
    // (extra keys are ignored) and change what the next variants find (a renamed lane).
    for (const [field, description] of Object.entries(payload?.keys ?? {})) {
      const kinds = kindsOf(field, description);
      for (const [kind, label, value] of FIELD_VALUES) {
        if (!kinds.has(kind)) continue;
        const rest = { ...base };
        delete rest[field];
        variants.push({ label: `${field}: ${label}`, path, contentType: json, body: withRaw(`${JSON.stringify(field)}:${value}`, rest) });
      }
      if (refusesBlank(field, description)) {
        const rest = { ...base };
        delete rest[field];
        variants.push({ label: `${field}: blank (spaces and a tab)`, path, contentType: json, body: withRaw(`${JSON.stringify(field)}:${JSON.stringify('  \t ')}`, rest), ...(page ? {} : { expect: namingRefusal(field) }) });
      }
    }
    variants.push(
      { label: 'invalid JSON (truncated)', path, contentType: json, body: '{"title": "x",' },
      { label: 'invalid JSON (single quotes)', path, contentType: json, body: "{'a': 1}" },
      { label: 'an empty body', path, contentType: json, body: '' },
      { label: 'a null body', path, contentType: json, body: 'null' },
      { label: 'an array body', path, contentType: json, body: '[]' },
      { label: 'a string body', path, contentType: json, body: '"x"' },
      { label: 'a number body', path, contentType: json, body: '12345' },
      { label: 'a __proto__ key', path, contentType: json, body: withRaw('"__proto__":{"polluted":true,"is_admin":true}', base) },
      { label: 'a constructor.prototype key', path, contentType: json, body: withRaw('"constructor":{"prototype":{"polluted":true}}', base) },
      { label: '10,000 nested arrays', path, contentType: json, body: DEEP_ARRAY },
      { label: '10,000 nested objects', path, contentType: json, body: DEEP_OBJECT },
      { label: 'a 1 MB string', path, contentType: json, body: JSON.stringify({ ...base, [firstField]: 'a'.repeat(MB) }) },
      { label: 'duplicate keys', path, contentType: json, body: withRaw(`${JSON.stringify(firstField)}:12345`, base) },
      {
        label: 'invalid UTF-8 bytes',
        path,
        contentType: json,
        body: Buffer.concat([Buffer.from(`{${JSON.stringify(firstField)}:"a`), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(`b"${withoutFirst.length > 2 ? `,${withoutFirst.slice(1)}` : '}'}`)]),
        // Never rewritten to U+FFFD: refused naming the field, on every route whose body is parsed.
        ...(route.settings.payload?.parse === true && !page ? { expect: exactRefusal(`${firstField} must be UTF-8 text: the body holds bytes that are not UTF-8`, firstField) } : {}),
      },
      { label: 'a byte-order mark', path, contentType: json, body: `\ufeff${baseText}` },
      { label: 'JSON sent as text/plain', path, contentType: 'text/plain', body: baseText },
      { label: 'JSON declared UTF-16', path, contentType: 'application/json; charset=utf-16', body: baseText },
      { label: 'a boolean body', path, contentType: json, body: 'true' },
      { label: 'a 2 MB body', path, contentType: json, body: JSON.stringify({ ...base, padding: 'a'.repeat(2 * MB) }) },
      { label: 'a field nested 10,000 levels', path, contentType: json, body: withRaw(`${JSON.stringify(firstField)}:${DEEP_OBJECT}`, Object.fromEntries(Object.entries(base).filter(([name]) => name !== firstField))) },
    );
  } else if (takesBody) {
    const type = types![0];
    variants.push(
      { label: `junk bytes as ${type}`, path, contentType: type, body: Buffer.from('not an image at all') },
      { label: `an empty ${type}`, path, contentType: type, body: '' },
      { label: `a truncated ${type}`, path, contentType: type, body: PNG.subarray(0, 20) },
      { label: `JSON as ${type}`, path, contentType: type, body: '{"a":1}' },
      { label: 'an image as application/json', path, contentType: 'application/json', body: PNG },
    );
    if (type === 'application/x-www-form-urlencoded') {
      // A page's form: the same kinds of bad text a JSON body gets, in form encoding.
      const field = Object.keys(described(route, 'payload')?.keys ?? {})[0] ?? 'name';
      variants.push(
        { label: 'form: a NUL', path, contentType: type, body: `${field}=a%00b` },
        { label: 'form: a lone surrogate', path, contentType: type, body: `${field}=a%ED%A0%80b` },
        { label: 'form: invalid UTF-8', path, contentType: type, body: `${field}=a%FF%FEb` },
        { label: 'form: a malformed escape', path, contentType: type, body: `${field}=%E0%A4%A` },
        { label: 'form: a repeated field', path, contentType: type, body: `${field}=a&${field}=b` },
        { label: 'form: a bracketed field', path, contentType: type, body: `${field}[a]=1` },
        { label: 'form: a __proto__ field', path, contentType: type, body: '__proto__[polluted]=1' },
        { label: 'form: a 512 KB field', path, contentType: type, body: `${field}=${'a'.repeat(512 * 1024)}` },
      );
    }
  }

  for (const [label, value] of GENERIC_QUERIES) variants.push({ label, path, query: [query, value].filter(Boolean).join('&'), ...bodyOf(jsonBody, base, types) });
  const queryVariant = (name: string, label: string, make: (name: string) => string): Variant => ({
    label: `query ${name}: ${label}`,
    path,
    query: [query.replace(new RegExp(`(^|&)${name}=[^&]*`), ''), make(name)].filter(Boolean).join('&'),
    ...bodyOf(jsonBody, base, types),
  });
  const queryNames = Object.keys(described(route, 'query')?.keys ?? {});
  for (const name of queryNames) for (const [label, make] of QUERY_VALUES) variants.push(queryVariant(name, label, make));

  for (const param of paramsOf(route.path)) {
    for (const [label, raw] of PATH_VALUES) {
      variants.push({ label: `path ${param}: ${label}`, path: fillPath(route.path, { ...Object.fromEntries(Object.entries(own).map(([name, value]) => [name, encodeURIComponent(value)])), [param]: raw }, true), query, ...bodyOf(jsonBody, base, types) });
    }
  }
  // A route with little to vary (one path id, no body) still gets 25: more query values.
  for (const [label, make] of MORE_QUERY_VALUES) if (variants.length < 25) variants.push(queryVariant(queryNames[0] ?? 'q', label, make));
  return variants;
}

/** A well-formed body for a variant that breaks something else (path or query). */
function bodyOf(jsonBody: boolean, base: Record<string, unknown>, types: string[] | undefined): Pick<Variant, 'contentType' | 'body'> {
  if (jsonBody) return { contentType: 'application/json', body: JSON.stringify(base) };
  if (types) return { contentType: types[0], body: PNG };
  return {};
}

/**
 * What is wrong with an answer, or null: never 5xx; a 4xx of an API route is a JSON
 * {"error": string} (a site page answers a browser with an error page instead).
 */
function problemWith(status: number, payload: string, page: boolean): string | null {
  if (status >= 500) return `answered ${status}`;
  if (status < 400) return null;
  if (page) return payload.length > 0 ? null : `answered ${status} with an empty body`;
  try {
    const body = JSON.parse(payload) as unknown;
    if (!body || typeof body !== 'object' || typeof (body as { error?: unknown }).error !== 'string') return `answered ${status} without an {"error": string} body`;
  } catch {
    return `answered ${status} with a body that is not JSON`;
  }
  return null;
}

/** What an exact-answer variant's check says of the answer, or null. */
function expected(variant: Variant, status: number, payload: string): string | null {
  if (!variant.expect) return null;
  let body: unknown = null;
  try {
    body = JSON.parse(payload);
  } catch {
    // problemWith has judged the shape; the check sees no body.
  }
  const problem = variant.expect(status, body);
  return problem ? `answered ${status}, ${problem}` : null;
}

/** What a run of the guard found. */
export interface BadInputResult {
  routes: number;
  requests: number;
  /** One line per failure: method, path, variant, status and body. */
  failures: string[];
  /** Routes that got fewer than 25 variants. */
  thin: string[];
}

/**
 * Sends every variant of every route, in order, as `a`'s owner; after each answer counts the rows
 * of every table (`counts`, one query) and compares with the count before it.
 */
export async function runBadInputGuard(env: GuardRuntime, a: SeededWorkspace, routes: RequestRoute[], counts: () => Promise<Record<string, number>>): Promise<BadInputResult> {
  const failures: string[] = [];
  const thin: string[] = [];
  let requests = 0;
  let last = await counts();
  for (const route of routes) {
    const method = route.method.toUpperCase();
    const variants = variantsFor(a, route);
    if (variants.length < 25) thin.push(`${method} ${route.path}: ${variants.length} variants`);
    for (const variant of variants) {
      const url = variant.query ? `${variant.path}?${variant.query}` : variant.path;
      const headers = a.as(a.ownerKey, { host: hostFor(env, route, a), ...(variant.contentType ? { 'content-type': variant.contentType } : {}) });
      const response = await env.inject({ method, url, headers, payload: variant.body });
      requests += 1;
      const where = `${method} ${route.path} [${variant.label}]`;
      const problem = problemWith(response.statusCode, response.payload, route.settings.app?.wpk?.kind === 'page') ?? expected(variant, response.statusCode, response.payload);
      if (problem) failures.push(`${where}: ${problem}: ${response.payload.slice(0, 200)}`);
      const now = await counts();
      if (response.statusCode >= 400) {
        const changed = changedTables(last, now, MAY_CHANGE_ON_REFUSAL).filter((line) => !(line.startsWith(`${DRAINS_IN_BACKGROUND}:`) && now[DRAINS_IN_BACKGROUND] < last[DRAINS_IN_BACKGROUND]));
        if (changed.length) failures.push(`${where}: answered ${response.statusCode} but wrote rows (${changed.join(', ')}): ${response.payload.slice(0, 200)}`);
      }
      last = now;
    }
  }
  return { routes: routes.length, requests, failures, thin };
}

/** Which routes one guard file covers: the platform's own, or the apps'. */
export interface BadInputSuite {
  /** `platform` or `apps`, in the test titles and the logged counts. */
  part: string;
  /** True for a route of this part. */
  covers: (route: RequestRoute) => boolean;
  /** The part has more routes than this (a guard that found few routes proves little). */
  minRoutes: number;
}

/**
 * Declares a guard file's tests: one booted runtime with one seeded workspace, and serial tests per
 * method in GUARD_PARTS parts (deletions last), so each reports on its own and none runs for
 * minutes. The last one checks the totals and that no route has a method the guard does not take.
 */
export function declareBadInputGuard(test: TestFn, suite: BadInputSuite): void {
  let env: GuardRuntime;
  let a: SeededWorkspace;
  let counts: () => Promise<Record<string, number>>;
  const totals = { routes: 0, requests: 0, failures: 0 };

  test.before(async () => {
    env = await startGuardRuntime();
    a = await seedWorkspace(env, 'alpha');
    counts = await rowCounter(env);
  });

  test.after.always(async () => {
    await env?.close();
  });

  const parts = Array.from({ length: GUARD_PARTS }, (_value, index) => index);
  for (const method of GUARD_METHODS) {
    for (const part of parts) {
      const last = method === GUARD_METHODS[GUARD_METHODS.length - 1] && part === GUARD_PARTS - 1;
      test.serial(`bad-input guard, ${suite.part} ${method.toUpperCase()} routes (part ${part + 1} of ${GUARD_PARTS}): no malformed request answers 5xx or a bare error, and a refused one writes no row`, async (t) => {
        const all = guardedRoutes(env).filter((route) => route.method === method && suite.covers(route));
        // Consecutive slices, so the guard's order (deletions of sub-resources first, closing routes last) holds across the parts.
        const routes = all.slice(Math.floor((part * all.length) / GUARD_PARTS), Math.floor(((part + 1) * all.length) / GUARD_PARTS));
        const result = await runBadInputGuard(env, a, routes, counts);
        totals.routes += result.routes;
        totals.requests += result.requests;
        totals.failures += result.failures.length;
        t.log(`bad-input guard (${suite.part}, ${method.toUpperCase()} ${part + 1}/${GUARD_PARTS}): ${result.routes} routes, ${result.requests} requests, ${result.failures.length} failures`);
        if (last) {
          t.log(`bad-input guard (${suite.part}, total): ${totals.routes} routes, ${totals.requests} requests, ${totals.failures} failures`);
          t.true(totals.routes > suite.minRoutes, `only ${totals.routes} ${suite.part} routes`);
          const unguarded = guardedRoutes(env).filter((route) => !(GUARD_METHODS as readonly string[]).includes(route.method));
          t.deepEqual(unguarded.map((route) => `${route.method} ${route.path}`), [], 'routes with a method no test of this file takes');
        }
        t.deepEqual(result.failures, [], `${result.failures.length} bad-input failures:\n${result.failures.join('\n')}`);
        t.deepEqual(result.thin, [], 'routes with fewer than 25 variants');
      });
    }
  }
}
