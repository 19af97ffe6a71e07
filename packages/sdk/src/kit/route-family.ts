import type { Schema } from 'joi';
import type { AppContext, AppTypes, UntypedApp } from '../app/context.js';
import type { ModelMap } from '../app/models.js';
import type { AppRequest, AppRoute, RouteAnswers, RouteRateLimit } from '../app/routes.js';
import type { ChainStep, HttpMethod } from '../manifest/types.js';

/** What every route of a family shares. `R` is the record as the services return it. */
export interface RouteFamilySpec<M extends ModelMap, T extends AppTypes, R> {
  /** The path parameters' schema (`Joi.idParams('board_id')`), validated on every route of the family. */
  params?: Schema;
  /** The record the family's routes answer: `{ single: record }`, or `{ collection: record }` for `list`. */
  record?: Schema;
  /** Turns a service's row into the answered record (each row of a page, for `list`). */
  present?(row: R, ctx: AppContext<M, T>): unknown;
  /** The links of a single record's answer (default: `self`, the request's path). */
  links?(row: R): { self: string } & Record<string, string>;
}

/** What one route of a family declares besides the family's shared parts. */
interface VerbCommon {
  /** The authorization chain (see AppRoute.chain). */
  chain: ChainStep[];
  /** One line for the docs, the manifest's authorization table and OpenAPI. */
  description?: string;
  /** The JSON body's schema. */
  payload?: Schema;
  /** The query's schema (for `list`, usually `Joi.listQuery({...filters})`). */
  query?: Schema;
  /** Bounds on the route's use (see AppRoute.rateLimits). */
  rateLimits?: RouteRateLimit[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route fixes its own payload (validated before the handler)
type Request = AppRequest<any>;

/**
 * One route of a family. Give the service call as `run` (its result is answered: through the
 * family's `present` and `links` when the route answers the family's record, as it is when the
 * route names its own `answers`), or, for an answer that is more than that, a whole `handler`.
 */
export type FamilyRoute<M extends ModelMap, T extends AppTypes, R> = VerbCommon &
  (
    | { answers?: undefined; run(request: Request, ctx: AppContext<M, T>): R | Promise<R>; handler?: undefined }
    | { answers: RouteAnswers; run(request: Request, ctx: AppContext<M, T>): unknown; handler?: undefined }
    | { answers?: RouteAnswers; handler(request: Request, ctx: AppContext<M, T>): unknown; run?: undefined }
  );

/** A page of rows as a service returns it: the rows and the total. */
export interface Page<R> {
  rows: R[];
  count: number;
}

const pageOf = (page: unknown): [unknown[], number] => {
  const { rows, count } = page as Page<unknown>;
  return [rows, count];
};

/** The list route of a family: `run` resolves to a page of rows, answered as a collection of the family's record. */
export type FamilyListRoute<M extends ModelMap, T extends AppTypes, R> = VerbCommon &
  (
    | { answers?: undefined; run(request: Request, ctx: AppContext<M, T>): Promise<Page<R>>; handler?: undefined }
    | { answers: RouteAnswers; run(request: Request, ctx: AppContext<M, T>): Promise<Page<unknown>>; handler?: undefined }
    | { answers?: RouteAnswers; handler(request: Request, ctx: AppContext<M, T>): unknown; run?: undefined }
  );

/** The routes of one resource path, declared once: each verb returns an ordinary AppRoute. */
export interface RouteFamily<M extends ModelMap, T extends AppTypes, R> {
  /** The family's path. */
  readonly path: string;
  /** `GET {path}`, answering a page of the family's records (`{ collection: record }`). */
  list(route: FamilyListRoute<M, T, R>): AppRoute<M, T>;
  /** `GET {path}`, answering one record. */
  get(route: FamilyRoute<M, T, R>): AppRoute<M, T>;
  /** `POST {path}`. */
  post(route: FamilyRoute<M, T, R>): AppRoute<M, T>;
  /** `PUT {path}`. */
  put(route: FamilyRoute<M, T, R>): AppRoute<M, T>;
  /** `PATCH {path}`. */
  patch(route: FamilyRoute<M, T, R>): AppRoute<M, T>;
  /** `DELETE {path}`. */
  delete(route: FamilyRoute<M, T, R>): AppRoute<M, T>;
  /**
   * A family at a path below this one (`'/{company_id}'`, `'/assignees/{member_id}'`): it keeps
   * this family's params, record, presenter and links, and takes what `spec` gives instead; a
   * family naming another record keeps only the params (the presenter and links were the record's).
   */
  at<S = R>(suffix: string, spec?: Partial<RouteFamilySpec<M, T, S>>): RouteFamily<M, T, S>;
}

/**
 * Declares the routes of one resource path once: the path, its parameters' schema, the record its
 * routes answer and how a service's row is presented; per route only what differs (method, chain,
 * description, payload, the service call). Each route is an ordinary AppRoute, so the manifest,
 * OpenAPI and the route table read it as any other:
 *
 * ```ts
 * const companies = routeFamily('/companies', { record: COMPANY, present: presentCompany, links: (company) => ({ self: `/companies/${company.id}` }) });
 * const company = companies.at('/{company_id}', { params: Joi.idParams('company_id') });
 * export const routes = [
 *   companies.list({ chain: ['companies.companies.read'], query: Joi.listQuery({ q }), run: (request, ctx) => listCompanies(ctx, request.query) }),
 *   company.get({ chain: ['companies.companies.read'], description: 'Reads a company', run: (request, ctx) => requireCompany(ctx, request.params.company_id) }),
 * ];
 * ```
 */
export function routeFamily<M extends ModelMap = ModelMap, T extends AppTypes = UntypedApp, R = unknown>(path: string, spec: RouteFamilySpec<M, T, R> = {}): RouteFamily<M, T, R> {
  const answersOf = (kind: 'single' | 'collection', own: RouteAnswers | undefined): RouteAnswers | undefined => {
    if (own) return own;
    if (!spec.record) return undefined;
    return kind === 'single' ? { single: spec.record } : { collection: spec.record };
  };
  const answerOne = async (row: R, ctx: AppContext<M, T>) => {
    const data = spec.present ? await spec.present(row, ctx) : row;
    return spec.links ? ctx.respond.single(data, spec.links(row)) : ctx.respond.single(data);
  };
  const answerPage = async ({ rows, count }: Page<R>, ctx: AppContext<M, T>) => {
    const present = spec.present;
    const data = present ? await Promise.all(rows.map((row) => present(row, ctx))) : rows;
    return ctx.respond.collection(data, count);
  };
  const declare = (method: HttpMethod, kind: 'single' | 'collection', route: FamilyRoute<M, T, R> | FamilyListRoute<M, T, R>): AppRoute<M, T> => {
    const validate = { ...(spec.params && { params: spec.params }), ...(route.query && { query: route.query }), ...(route.payload && { payload: route.payload }) };
    const answers = answersOf(kind, route.answers);
    const declared: AppRoute<M, T> = {
      method,
      path,
      chain: route.chain,
      ...(answers && { answers }),
      ...(route.description !== undefined && { description: route.description }),
      ...(Object.keys(validate).length > 0 && { validate }),
      ...(route.rateLimits && { rateLimits: route.rateLimits }),
      handler: route.handler ?? handlerOf(kind, route),
    };
    return declared;
  };
  const handlerOf = (kind: 'single' | 'collection', route: FamilyRoute<M, T, R> | FamilyListRoute<M, T, R>): AppRoute<M, T>['handler'] => {
    const run = route.run!;
    // A route naming its own answers answers what its service returns, as it is.
    if (route.answers) {
      if ('collection' in route.answers) return async (request, ctx) => ctx.respond.collection(...pageOf(await run(request, ctx)));
      return async (request, ctx) => ctx.respond.single(await run(request, ctx));
    }
    if (kind === 'collection') return async (request, ctx) => answerPage((await run(request, ctx)) as Page<R>, ctx);
    return async (request, ctx) => answerOne((await run(request, ctx)) as R, ctx);
  };
  return Object.freeze({
    path,
    list: (route: FamilyListRoute<M, T, R>) => declare('GET', 'collection', route),
    get: (route: FamilyRoute<M, T, R>) => declare('GET', 'single', route),
    post: (route: FamilyRoute<M, T, R>) => declare('POST', 'single', route),
    put: (route: FamilyRoute<M, T, R>) => declare('PUT', 'single', route),
    patch: (route: FamilyRoute<M, T, R>) => declare('PATCH', 'single', route),
    delete: (route: FamilyRoute<M, T, R>) => declare('DELETE', 'single', route),
    at: <S = R>(suffix: string, below: Partial<RouteFamilySpec<M, T, S>> = {}) => {
      // Another record brings its own presenter and links: this family's are for its record.
      const kept = 'record' in below && below.record !== spec.record ? { params: spec.params } : spec;
      return routeFamily<M, T, S>(`${path}${suffix}`, { ...(kept as RouteFamilySpec<M, T, S>), ...below });
    },
  });
}
