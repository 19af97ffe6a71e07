import { InvalidError } from '@wpk/sdk';

/** The longest key, in UTF-8 bytes (S3's own limit). */
export const MAX_KEY_BYTES = 1024;

// Control characters and the backslash never belong in a key.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN = /[\u0000-\u001f\u007f\\]/;

/**
 * Checks an app's object key: 1-1024 UTF-8 bytes, `/`-separated segments, none empty, `.` or
 * `..`, no leading or trailing `/`, no backslash or control character. Keys never become file
 * paths (a blob's name is made of ids), but a key that reads like a path escape is refused all
 * the same, so no app can rely on one.
 */
export function checkKey(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidError('key: must be a non-empty string');
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) throw new InvalidError(`key: must be at most ${MAX_KEY_BYTES} bytes long`);
  if (FORBIDDEN.test(key)) throw new InvalidError('key: must not contain control characters or a backslash');
  if (key.startsWith('/')) throw new InvalidError('key: must be relative (no leading /)');
  for (const segment of key.split('/')) {
    if (segment === '') throw new InvalidError('key: must not have empty segments (// or a trailing /)');
    if (segment === '.' || segment === '..') throw new InvalidError('key: must not have . or .. segments');
  }
  return key;
}
