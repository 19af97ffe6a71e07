import type { ObjectSchema, Schema } from 'joi';
import { Joi } from '../input/joi.js';
import type { AppContext, AppTypes, PublicContext, UntypedApp } from './context.js';
import type { ModelMap } from './models.js';
import type { ChainStep, HttpMethod } from '../manifest/types.js';

/** The request as a handler sees it: validated params, query and payload, and the headers. */
export interface AppRequest<P = Record<string, unknown>> {
  /** Upper-case HTTP method. */
  method: string;
  /** The path as requested. */
  path: string;
  /** Path parameters (after validation). */
  params: Record<string, string>;
  /** Query parameters (after validation). */
  query: Record<string, unknown>;
  /** The JSON body (after validation). */
  payload: P;
  /** Request headers, lower-cased names. */
  headers: Record<string, string | string[] | undefined>;
  /** The client's address (behind a trusted proxy, the address it forwarded), for an audit trail; null when unknown. */
  clientAddress?: string | null;
}

/** joi schemas validating the request; unknown keys are dropped, a failure answers 400 naming the field. */
export interface RouteValidation {
  /** Path parameters. */
  params?: Schema;
  /** Query string. */
  query?: Schema;
  /** JSON body. */
  payload?: Schema;
}

/**
 * What a route answers with: the joi schema of the record `ctx.respond.single` puts in `data`, or
 * of each record `ctx.respond.collection` lists. It goes into the OpenAPI document, so the typed
 * client knows the fields, and the test harness checks every answer the app's tests produce
 * against it; nothing checks it per request in production. Build it with `recordSchema` (every
 * field required unless named optional); name it with `.id('Board')` to share it between routes.
 * A route answering with `ctx.respond.file` declares `{ file: 'text/csv' }` (its media type), or
 * each of its media types when it answers several (an export by format: `{ file: ['text/markdown',
 * 'application/pdf'] }`).
 * A collection answered with more top-level keys beside the envelope's (a report's `totals`)
 * names them in `alongside`; a route answering one of several envelopes (a report as rows, or
 * with `format=csv` as an export) declares `{ anyOf: [...] }`.
 */
export type RouteAnswers = EnvelopeAnswer | { file: string | readonly string[] } | { anyOf: EnvelopeAnswer[] };

/** One envelope a route answers: a single record, or a page of records with optional keys beside it (each required). */
export type EnvelopeAnswer = { single: Schema } | { collection: Schema; alongside?: Record<string, Schema> };

/**
 * A bound on how often a route may be used (a public form's abuse guard, a member's posting
 * rate): at most `limit` requests per `windowSeconds` (a sliding window of at most a day), one
 * counter per workspace and per client address (`per: 'client'`), per calling member
 * (`per: 'member'`, routes with a caller only) or per value of a path parameter
 * (`per: 'param:job_id'`). The platform counts a request once it passed validation, before the
 * handler and its transaction, in the database every server process shares, atomically (one
 * statement under the counter's row lock, so concurrent requests cannot overrun the bound); a
 * request the handler then refuses still counts. Over the bound the answer is 429
 * `{"error": message}` with `Retry-After` (seconds), and the handler does not run; an earlier
 * bound of the route that had counted the refused request takes it back.
 */
export interface RouteRateLimit {
  /** What is counted, unique among the app's routes: 1-50 lower-case letters, digits or dashes. */
  name: string;
  /** Whose requests share a counter: the client's address, the calling member, or one value of a path parameter. */
  per: 'client' | 'member' | `param:${string}`;
  /** Requests allowed per window, 1-1000000. */
  limit: number;
  /** The sliding window, 1-86400 seconds. */
  windowSeconds: number;
  /** The 429 answer's error, 1-300 characters. */
  message: string;
}

/**
 * The joi schema of an answered record: every key required (a field the record may leave out is
 * named in `optional`); nullable fields say `.allow(null)`.
 */
export function recordSchema(keys: Record<string, Schema>, options: { optional?: string[] } = {}): ObjectSchema {
  const optional = new Set(options.optional ?? []);
  for (const name of optional) if (!(name in keys)) throw new Error(`recordSchema: optional field ${name} is not a key`);
  return Joi.object(Object.fromEntries(Object.entries(keys).map(([name, schema]) => [name, optional.has(name) ? schema.optional() : schema.required()])));
}

/** A route of the app: method + path (as in the manifest's authorization table) and a handler. */
export interface AppRoute<M extends ModelMap = ModelMap, T extends AppTypes = UntypedApp> {
  /** HTTP method. */
  method: HttpMethod;
  /** Route pattern (hapi syntax: `/greetings/{id}`). Ext apps are served under `/ext/{publisher}/{slug}`. */
  path: string;
  /**
   * The authorization chain (layer 5): permission keys, named checks (`{ check: 'task_creator' }`)
   * and any-of groups, every step must pass. Written here only: `wpk manifest` copies it into
   * app.json's authorization table, and the runtime refuses to start when the two differ.
   */
  chain: ChainStep[];
  /** Request validation. */
  validate?: RouteValidation;
  /** One line for the docs, the manifest's authorization table and OpenAPI. */
  description?: string;
  /** The record it answers with (OpenAPI, the typed client, the tests' response checks). */
  answers?: RouteAnswers;
  /** Bounds on the route's use, checked in order before the handler (see RouteRateLimit). */
  rateLimits?: RouteRateLimit[];
  /** True for a route the manifest marks `public: true` (use definePublicRoute). */
  public?: false;
  /** Answers the request; the return value is the 200 body. Throw the SDK's errors for 4xx. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route fixes its own payload (validated before the handler)
  handler(request: AppRequest<any>, ctx: AppContext<M, T>): unknown;
}

/** A public route (manifest `public: true`): no credential, no caller in the context. */
export interface AppPublicRoute<M extends ModelMap = ModelMap, T extends AppTypes = UntypedApp> {
  /** HTTP method. */
  method: HttpMethod;
  /** Route pattern. */
  path: string;
  /** Request validation. */
  validate?: RouteValidation;
  /** One line for the docs and the manifest's authorization table. */
  description?: string;
  /** The record it answers with (see AppRoute.answers). */
  answers?: RouteAnswers;
  /** Bounds on the route's use, checked in order before the handler (see RouteRateLimit). */
  rateLimits?: RouteRateLimit[];
  /** Always true. */
  public: true;
  /** Answers the request; the return value is the 200 body. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route fixes its own payload (validated before the handler)
  handler(request: AppRequest<any>, ctx: PublicContext<M, T>): unknown;
}

/** Any route of an app. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- some app's types
export type AnyAppRoute<M extends ModelMap = ModelMap, T extends AppTypes = any> = AppRoute<M, T> | AppPublicRoute<M, T>;

/** Declares a route (typing helper): `defineRoute<Models, AppTypes>({ method, path, validate, handler })`. */
export function defineRoute<M extends ModelMap = ModelMap, T extends AppTypes = UntypedApp>(route: AppRoute<M, T>): AppRoute<M, T> {
  return route;
}

/** Declares a public route (the manifest must mark it `public: true`). */
export function definePublicRoute<M extends ModelMap = ModelMap, T extends AppTypes = UntypedApp>(route: Omit<AppPublicRoute<M, T>, 'public'>): AppPublicRoute<M, T> {
  return { ...route, public: true };
}
