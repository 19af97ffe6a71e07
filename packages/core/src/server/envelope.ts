import type { Request } from '@hapi/hapi';
import type { Pagination } from './pagination.js';

/** The single-resource envelope: `data` plus `links.self` (and any relationship links). */
export interface SingleEnvelope<T> {
  data: T;
  links: { self: string } & Record<string, string>;
}

/** The collection envelope of the specification. */
export interface CollectionEnvelope<T> {
  data: T[];
  pagination: { page: number; per_page: number; total: number; pages: number };
  links: { self: string; first: string; last: string; next: string | null; prev: string | null };
}

type Query = Record<string, unknown>;

/** The query's parameters other than `page` and `per_page`, form-encoded in their order ('' for none). */
function otherParameters(query: Query): string {
  let params: URLSearchParams | null = null;
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (key === 'page' || key === 'per_page' || value === undefined) continue;
    params ??= new URLSearchParams();
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  return params ? params.toString() : '';
}

/** `?others&page=..&per_page=..`: pages and sizes are integers, so they need no encoding. */
function withPage(others: string, page?: number, perPage?: number): string {
  let text = others;
  if (page !== undefined) text += `${text ? '&' : ''}page=${page}`;
  if (perPage !== undefined) text += `${text ? '&' : ''}per_page=${perPage}`;
  return text ? `?${text}` : '';
}

/** The request's own link: its path and query string as received. */
export function selfLink(request: Request): string {
  return `${request.path}${withPage(otherParameters(request.query as Query))}`;
}

/** Wraps one resource. */
export function single<T>(request: Request, data: T, links: Record<string, string> = {}): SingleEnvelope<T> {
  return { data, links: { self: selfLink(request), ...links } };
}

/**
 * Wraps one page of a collection. Links repeat the path and the other query parameters, with
 * `page` and `per_page`. `pages` is the page count at this page size (0 for an empty
 * collection, whose `last` link is page 1); `next` is null on the last page and beyond it,
 * `prev` is null on the first page.
 */
export function collection<T>(request: Pick<Request, 'path' | 'query'>, rows: T[], total: number, pagination: Pagination): CollectionEnvelope<T> {
  const { page, perPage } = pagination;
  const pages = Math.ceil(total / perPage);
  const lastPage = Math.max(1, pages);
  const others = otherParameters(request.query as Query);
  const link = (target: number) => `${request.path}${withPage(others, target, perPage)}`;
  return {
    data: rows,
    pagination: { page, per_page: perPage, total, pages },
    links: {
      self: link(page),
      first: link(1),
      last: link(lastPage),
      next: page < pages ? link(page + 1) : null,
      prev: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
    },
  };
}
