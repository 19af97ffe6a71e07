/**
 * The data table's sort, apart from the component so it can be tested alone: the API's
 * `?sort=field` (ascending) / `?sort=-field` (descending), the header's `aria-sort`, and the
 * order a header's clicks go through (none → ascending → descending → ascending …).
 */

/** The `aria-sort` of a column's header under `sort`. */
export function sortState(sort: string | null, key: string): 'ascending' | 'descending' | 'none' {
  if (sort === key) return 'ascending';
  if (sort === `-${key}`) return 'descending';
  return 'none';
}

/** The sort after a click on `key`'s header: ascending first, then it flips. */
export function nextSort(sort: string | null, key: string): string {
  return sort === key ? `-${key}` : key;
}

/** `sort` when it names one of `sortable` (ascending or descending), else null: a hand-edited URL sorts by nothing unknown. */
export function validSort(sort: string | null | undefined, sortable: readonly string[]): string | null {
  if (!sort) return null;
  return sortable.includes(sort.startsWith('-') ? sort.slice(1) : sort) ? sort : null;
}

/** `path` with its query parameter `name` set to `value` (removed when null), the rest kept in order. */
export function withQueryParam(path: string, name: string, value: string | null): string {
  const hashAt = path.indexOf('#');
  const hash = hashAt === -1 ? '' : path.slice(hashAt);
  const bare = hashAt === -1 ? path : path.slice(0, hashAt);
  const queryAt = bare.indexOf('?');
  const pathname = queryAt === -1 ? bare : bare.slice(0, queryAt);
  const query = new URLSearchParams(queryAt === -1 ? '' : bare.slice(queryAt + 1));
  if (value === null) query.delete(name);
  else query.set(name, value);
  const search = query.toString();
  return `${pathname}${search ? `?${search}` : ''}${hash}`;
}
