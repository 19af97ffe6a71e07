import { createHash, randomBytes, randomInt } from 'node:crypto';

/** A URL-safe random secret (256 bits): session ids, invitation and password-reset tokens. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256, hex: how tokens and session ids are stored (never the secret itself). */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

// Crockford's base32: no I, L, O, U, so a code read aloud or retyped is unambiguous.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A random code of `length` Crockford base32 characters (5 bits each). */
export function randomCode(length: number): string {
  let code = '';
  for (let index = 0; index < length; index += 1) code += CROCKFORD[randomInt(CROCKFORD.length)];
  return code;
}

/** Normalises a typed code: case-insensitive, spaces and dashes ignored. */
export function normalizeCode(input: string): string {
  return input.replace(/[\s-]/g, '').toUpperCase();
}
