/** Pagination bounds from the specification's "Limits". */
export const DEFAULT_PAGE = 1;
export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

/** A resolved page request. */
export interface Pagination {
  page: number;
  perPage: number;
  /** Rows to skip. */
  offset: number;
  /** Rows to take. */
  limit: number;
}

function readInteger(value: unknown): number | null {
  const raw = Array.isArray(value) ? value[value.length - 1] : value;
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw.trim())) return null;
  const parsed = Number(raw);
  return Number.isSafeInteger(parsed) ? parsed : null;
}

/**
 * Reads `page` and `per_page` leniently: malformed values (`abc`, `1.5`, empty) fall back to
 * the defaults, values below 1 become 1, `per_page` above 100 becomes 100. Never an error.
 */
export function parsePagination(query: Record<string, unknown>): Pagination {
  const pageInput = readInteger(query.page);
  const perPageInput = readInteger(query.per_page);
  const page = pageInput === null ? DEFAULT_PAGE : Math.max(1, pageInput);
  const perPage = perPageInput === null ? DEFAULT_PER_PAGE : Math.min(MAX_PER_PAGE, Math.max(1, perPageInput));
  return { page, perPage, offset: (page - 1) * perPage, limit: perPage };
}
