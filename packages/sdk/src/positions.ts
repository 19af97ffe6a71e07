/**
 * `@wpk/sdk/positions`: fractional positions, keys of base-62 digits compared as strings (byte
 * order), so an item moves between two siblings by taking a key between theirs and no other is
 * rewritten (Wiki's page tree, Slides' slide order). It imports nothing, so a front-end may bundle it.
 */

/** A key's digits, in their sort order. */
export const POSITION_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A key strictly between `before` and `after` (null: no bound on that side). */
export function keyBetween(before: string | null, after: string | null): string {
  if (before !== null && after !== null && before >= after) throw new RangeError(`keyBetween: ${before} is not before ${after}`);
  let key = '';
  for (let index = 0; ; index += 1) {
    const low = before !== null && index < before.length ? POSITION_DIGITS.indexOf(before[index]!) : 0;
    // Past the upper bound's prefix (the key already sorts below it) any digit fits.
    const bounded = after !== null && key === after.slice(0, index);
    const high = bounded && index < after.length ? POSITION_DIGITS.indexOf(after[index]!) : POSITION_DIGITS.length;
    if (high - low > 1) return key + POSITION_DIGITS[Math.floor((low + high) / 2)]!;
    key += POSITION_DIGITS[low]!;
  }
}

/** A key `keyBetween` could have made: 1-200 base-62 digits, not ending in 0 (no key sorts between `a` and `a0`). */
export const POSITION_PATTERN = /^[0-9A-Za-z]{0,199}[1-9A-Za-z]$/;
