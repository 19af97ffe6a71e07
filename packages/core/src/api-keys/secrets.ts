import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Characters after `slk_`: 32 base62 characters carry about 190 bits. */
const SECRET_LENGTH = 32;
/** What lists show of a secret, as the specification fixes it. */
export const PREFIX_LENGTH = 12;
export const KEY_MARK = 'slk_';

/** A new secret: `slk_` and 32 base62 characters from the system's CSPRNG (no modulo bias). */
export function generateSecret(): string {
  let body = '';
  while (body.length < SECRET_LENGTH) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && body.length < SECRET_LENGTH) body += ALPHABET[byte % 62]; // 248 = 4 × 62
    }
  }
  return `${KEY_MARK}${body}`;
}

/** The stored form of a secret: SHA-256, hex. A fast hash is right here: the secret is random, not a password. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The first 12 characters, kept to tell keys apart in lists. */
export function secretPrefix(secret: string): string {
  return secret.slice(0, PREFIX_LENGTH);
}
