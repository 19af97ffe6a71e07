import type { Request, RouteOptions, Server } from '@hapi/hapi';
import { ForbiddenError, InvalidError, Joi } from '@wpk/sdk';
import { collection, parsePagination, validationFailure } from '../server/index.js';
import { SEARCH_HIT } from './answers.js';
import { permittedTypes, type SearchAccess } from './access.js';
import { filtersToQuery, parseFilters, type FilterInput, type SearchFilters } from './filters.js';
import type { SearchIndex } from './search-index.js';

/**
 * Whom a search reads for: the names the caller answers to, their member id and
 * `role:{platform role}`. Records with readers (a member's private file, a private call, a paper
 * shared with the admins) are found only by the members they name, by id or by role; owners and
 * admins are not added to anything else. Every reader of the index on a member's behalf (search,
 * AI commands) passes it.
 */
export function searchReaderOf(request: Request): string[] {
  const member = (request.auth.credentials as { member?: { id?: unknown; platformRole?: unknown } } | null)?.member;
  if (typeof member?.id !== 'string') return [];
  return typeof member.platformRole === 'string' ? [member.id, `role:${member.platformRole}`] : [member.id];
}

export interface SearchRoutesOptions {
  index: SearchIndex;
  access: SearchAccess;
  /** Route auth; omitted means the server's default strategy (tests pass their own). */
  auth?: RouteOptions['auth'];
}

/** The layer-4 answer of the specification. */
export const NO_APP_ACCESS = "You don't have access to this app";

const searchSchema = Joi.object({
  app: Joi.string().min(1).max(64).required(),
  q: Joi.string().allow('').max(200),
  types: Joi.array().items(Joi.string().min(1).max(100)).max(50).unique(),
});

interface SearchInput {
  app: string;
  q: string;
  types?: string[];
  filters: SearchFilters;
}

function validate(source: 'query' | 'payload', input: Record<string, unknown>): { app: string; q?: string; types?: string[] } {
  const { error, value } = searchSchema.validate(input, { abortEarly: true, allowUnknown: true, errors: { wrap: { label: false } } });
  if (error) throw validationFailure(source, error);
  return value;
}

/** GET: `app`, `q`, `types` (repeated or comma-separated); every other parameter but `page`/`per_page` is a filter. */
function fromQuery(query: Record<string, unknown>): SearchInput {
  const { app, q, types, page: _page, per_page: _perPage, ...rest } = query;
  const typeList = types === undefined ? undefined : (Array.isArray(types) ? types : [types]).flatMap((item) => String(item).split(',')).map((item) => item.trim()).filter(Boolean);
  const checked = validate('query', { app, q, types: typeList });
  return { app: checked.app, q: checked.q ?? '', types: checked.types, filters: parseFilters(rest as FilterInput, (name) => `query parameter ${name}`) };
}

/** POST: the same fields in a JSON body, filters under `filters`. */
function fromPayload(payload: unknown): SearchInput {
  const body = (payload ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) throw new InvalidError('body must be a JSON object');
  const checked = validate('payload', { app: body.app, q: body.q, types: body.types });
  const filters = body.filters ?? {};
  if (typeof filters !== 'object' || filters === null || Array.isArray(filters)) throw new InvalidError('filters must be an object');
  return { app: checked.app, q: checked.q ?? '', types: checked.types, filters: parseFilters(filters as FilterInput, (name) => `filters.${name}`, (name) => `filters.${name}`) };
}

async function search(request: Request, options: SearchRoutesOptions, input: SearchInput, pageQuery: Record<string, unknown>, linkQuery: Record<string, unknown>) {
  const { index, access } = options;
  const workspace = request.app.workspace!;
  const foreign = input.filters.mrn?.find((entry) => entry.app !== input.app);
  if (foreign) throw new InvalidError(`mrn: ${foreign.value} is not a record of ${input.app}`);
  if (!(await access.canOpenApp(request, input.app))) throw new ForbiddenError(NO_APP_ACCESS);
  const declared = await access.searchableTypes(input.app);
  const unknown = input.types?.find((type) => !declared.some((entry) => entry.type === type));
  if (unknown !== undefined) throw new InvalidError(`types: "${unknown}" is not a searchable type of ${input.app}`);
  const allowed = new Set(permittedTypes(input.app, declared, await access.heldKeys(request, input.app)).map((entry) => entry.type));
  const types = (input.types ?? declared.map((entry) => entry.type)).filter((type) => allowed.has(type));
  const pagination = parsePagination(pageQuery);
  const page = await index.search(workspace.id, input.app, {
    q: input.q,
    types,
    typeOrder: input.types !== undefined,
    filters: input.filters,
    reader: searchReaderOf(request),
    limit: pagination.limit,
    offset: pagination.offset,
  });
  // Links always repeat the search as GET parameters, so a POST search's links can be followed too.
  return collection({ path: request.path, query: linkQuery }, page.rows, page.total, pagination);
}

/**
 * `GET /search` and `POST /search`: the platform search inside one app, with the same
 * behaviour on both methods. Answers the collection envelope of results
 * `{type, id, title, subtitle, url, score}`, already ranked.
 */
export function registerSearchRoutes(server: Server, options: SearchRoutesOptions): void {
  const routeOptions = (): RouteOptions => ({
    ...(options.auth !== undefined ? { auth: options.auth } : {}),
    app: { wpk: { kind: 'api', scope: 'workspace' }, platformAccess: 'app', answers: { collection: SEARCH_HIT } },
  });
  server.route([
    {
      method: 'GET',
      path: '/search',
      options: {
        ...routeOptions(),
        handler: (request) => {
          const input = fromQuery(request.query);
          return search(request, options, input, request.query, request.query);
        },
      },
    },
    {
      method: 'POST',
      path: '/search',
      options: {
        ...routeOptions(),
        handler: (request) => {
          const input = fromPayload(request.payload);
          const body = (request.payload ?? {}) as Record<string, unknown>;
          const pageQuery = { page: request.query.page ?? (body.page === undefined ? undefined : String(body.page)), per_page: request.query.per_page ?? (body.per_page === undefined ? undefined : String(body.per_page)) };
          const linkQuery = { app: input.app, ...(input.q ? { q: input.q } : {}), ...(input.types ? { types: input.types } : {}), ...filtersToQuery(input.filters) };
          return search(request, options, input, pageQuery, linkQuery);
        },
      },
    },
  ]);
}
