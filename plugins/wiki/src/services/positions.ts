/**
 * Fractional positions: keys of base-62 digits compared as strings (byte order), so a page moves
 * between two siblings by taking a key between theirs and no other row is rewritten.
 */
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A key strictly between `before` and `after` (null: no bound on that side). */
export function keyBetween(before: string | null, after: string | null): string {
  if (before !== null && after !== null && before >= after) throw new RangeError(`keyBetween: ${before} is not before ${after}`);
  let key = '';
  for (let index = 0; ; index += 1) {
    const low = before !== null && index < before.length ? DIGITS.indexOf(before[index]!) : 0;
    // Past the upper bound's prefix (the key already sorts below it) any digit fits.
    const bounded = after !== null && key === after.slice(0, index);
    const high = bounded && index < after.length ? DIGITS.indexOf(after[index]!) : DIGITS.length;
    if (high - low > 1) return key + DIGITS[Math.floor((low + high) / 2)]!;
    key += DIGITS[low]!;
  }
}
