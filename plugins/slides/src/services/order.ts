/**
 * The slides' order in the deck's document: each slide holds a fractional `order` key (the SDK's
 * `keyBetween`), so a move changes one key and never the slide itself (an edit made inside it
 * meanwhile survives). Shared by the server and the front-end, so it imports only the SDK's
 * dependency-free `@wpk/sdk/positions`.
 */
import { keyBetween } from '@wpk/sdk/positions';

export interface Ordered {
  id: string;
  order?: string;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** True when every item holds a key (a deck older than the keys holds none until first used). */
export const allKeyed = (items: readonly Ordered[]) => items.every((item) => typeof item.order === 'string');

/**
 * Items in their order: by key, then by id (two people moving slides into one gap at once make
 * equal keys); in the array's order while any lacks a key.
 */
export function sortByOrder<T extends Ordered>(items: readonly T[]): T[] {
  if (!allKeyed(items)) return [...items];
  return [...items].sort((a, b) => compare(a.order!, b.order!) || compare(a.id, b.id));
}

/** Keys for `count` items in a row, each after the one before. */
export function keysInRow(count: number): string[] {
  const keys: string[] = [];
  for (let index = 0; index < count; index += 1) keys.push(keyBetween(keys[index - 1] ?? null, null));
  return keys;
}

/**
 * The key that puts an item at `index` of `others` (the sorted items without it), or null when
 * its neighbours' keys are equal and leave no room: then every item takes a new key.
 */
export function keyAt(others: readonly Ordered[], index: number): string | null {
  const before = others[index - 1]?.order ?? null;
  const after = others[index]?.order ?? null;
  if (before !== null && after !== null && before >= after) return null;
  return keyBetween(before, after);
}

/**
 * Keys for `ids` in this order, keeping the most existing keys that already sort in it (the
 * longest increasing run of them): a REST write that moves one slide changes one key.
 */
export function keysFor(ids: readonly string[], existing: ReadonlyMap<string, string>): string[] {
  const own = ids.map((id) => existing.get(id));
  // Longest increasing subsequence of the existing keys (patience sorting): `tails[k]` ends the best run of k + 1.
  const tails: number[] = [];
  const previous = new Array<number>(ids.length).fill(-1);
  own.forEach((key, index) => {
    if (key === undefined) return;
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (own[tails[middle]!]! < key) low = middle + 1;
      else high = middle;
    }
    previous[index] = low > 0 ? tails[low - 1]! : -1;
    tails[low] = index;
  });
  const kept = new Set<number>();
  for (let index = tails.length > 0 ? tails[tails.length - 1]! : -1; index !== -1; index = previous[index]!) kept.add(index);
  const keys: string[] = [];
  ids.forEach((_id, index) => {
    if (kept.has(index)) return void keys.push(own[index]!);
    let next: number | undefined;
    for (let later = index + 1; later < ids.length && next === undefined; later += 1) if (kept.has(later)) next = later;
    keys.push(keyBetween(keys[index - 1] ?? null, next === undefined ? null : own[next]!));
  });
  return keys;
}
