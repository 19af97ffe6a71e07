import { INSTANT_RULE, InvalidError, parseInstant } from '@wpk/sdk';

/** Names that carry the search itself (or pagination), never a filter. */
export const RESERVED_PARAMETERS = new Set(['app', 'q', 'types', 'page', 'per_page']);

/** At most this many filters per request. */
export const MAX_FILTERS = 20;

/** The filters of one search, validated. Every one given must hold for a record to be found. */
export interface SearchFilters {
  /** `owner`: the record's owner is one of these. */
  owner?: string[];
  /** `type`: the record's own type attribute (a file's kind, say) is one of these. */
  kind?: string[];
  /** `after`: the record's date is at or after this instant. */
  after?: Date;
  /** `before`: the record's date is before this instant. */
  before?: Date;
  /** `min_size`: the record's size is at least this. */
  minSize?: number;
  /** `max_size`: the record's size is at most this. */
  maxSize?: number;
  /**
   * `mrn`: the record is one of these (`mrn:{app}:{resource}:{id}`, the app the one searched):
   * what an MRN chip shows. The resource is the record's searchable type and the id its id.
   */
  mrn?: Array<{ app: string; resource: string; id: string; value: string }>;
  /** Any other name: the record's attribute of that name is one of these values. */
  attributes: Record<string, string[]>;
}

const MRN = /^mrn:([a-z0-9][a-z0-9._-]{0,99}):([a-z0-9_-]{1,100}):([A-Za-z0-9._-]{1,200})$/;

type Scalar = string | number | boolean;
export type FilterInput = Record<string, Scalar | Scalar[] | null | undefined>;

/** A Date, or `YYYY-MM-DD` / an ISO 8601 instant by the platform's instant rule (no day that does not exist); null otherwise. */
export function toInstant(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  return typeof value === 'string' ? parseInstant(value.trim()) : null;
}

/**
 * Validates the filters of a search. `label(name)` names a filter in messages (`query
 * parameter after` for GET, `filters.after` for POST), so both answer the same rule the same way;
 * `path(name)` is the refusal's `field` (`after`, `filters.after`).
 */
export function parseFilters(input: FilterInput, label: (name: string) => string, path: (name: string) => string = (name) => name): SearchFilters {
  const filters: SearchFilters = { attributes: {} };
  const entries = Object.entries(input).filter(([, value]) => value !== null && value !== undefined);
  if (entries.length > MAX_FILTERS) throw new InvalidError(`at most ${MAX_FILTERS} filters are allowed`);
  for (const [name, raw] of entries) {
    if (RESERVED_PARAMETERS.has(name)) throw new InvalidError(`${label(name)} is not a filter`, { field: path(name) });
    if (name.length < 1 || name.length > 64) throw new InvalidError(`filter names must be 1-64 characters`);
    const values = (Array.isArray(raw) ? raw : [raw]) as Scalar[];
    if (values.length > 50) throw new InvalidError(`${label(name)} must have at most 50 values`, { field: path(name) });
    const strings = values.map((value) => {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw new InvalidError(`${label(name)} must be a string, a number, a boolean or an array of them`, { field: path(name) });
      const text = String(value);
      if (text.length > 200) throw new InvalidError(`${label(name)} must be at most 200 characters`, { field: path(name) });
      return text;
    });
    const single = (): string => {
      if (strings.length !== 1) throw new InvalidError(`${label(name)} must be given once`, { field: path(name) });
      return strings[0];
    };
    switch (name) {
      case 'owner':
        filters.owner = strings;
        break;
      case 'type':
        filters.kind = strings;
        break;
      case 'mrn':
        filters.mrn = strings.map((value) => {
          const match = MRN.exec(value);
          if (!match) throw new InvalidError(`${label(name)} must be an MRN (mrn:{app}:{resource}:{id})`, { field: path(name) });
          return { app: match[1], resource: match[2], id: match[3], value };
        });
        break;
      case 'after':
      case 'before': {
        const date = toInstant(single());
        if (!date) throw new InvalidError(`${label(name)} ${INSTANT_RULE}`, { field: path(name) });
        filters[name] = date;
        break;
      }
      case 'min_size':
      case 'max_size': {
        const text = single().trim();
        if (!/^\d{1,15}$/.test(text)) throw new InvalidError(`${label(name)} must be a whole number of 0 or more`, { field: path(name) });
        filters[name === 'min_size' ? 'minSize' : 'maxSize'] = Number(text);
        break;
      }
      default:
        filters.attributes[name] = strings;
    }
  }
  return filters;
}

/** The filters as GET query parameters (what links of a POST search repeat). */
export function filtersToQuery(filters: SearchFilters): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  if (filters.owner) query.owner = filters.owner;
  if (filters.kind) query.type = filters.kind;
  if (filters.mrn) query.mrn = filters.mrn.map((entry) => entry.value);
  if (filters.after) query.after = filters.after.toISOString();
  if (filters.before) query.before = filters.before.toISOString();
  if (filters.minSize !== undefined) query.min_size = String(filters.minSize);
  if (filters.maxSize !== undefined) query.max_size = String(filters.maxSize);
  for (const [name, values] of Object.entries(filters.attributes)) query[name] = values;
  return query;
}
