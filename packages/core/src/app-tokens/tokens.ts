import { createHmac, timingSafeEqual } from 'node:crypto';

/** The prefix of every app token: the auth scheme tells it from an API key (`slk_`) by it. */
export const APP_TOKEN_PREFIX = 'wpka_';

/** How long an app token lives (the shell renews it at four fifths of that). */
export const APP_TOKEN_TTL_SECONDS = 600;

/** What an app token says, signed. */
export interface AppTokenClaims {
  /** Workspace id. */
  w: string;
  /** Member id. */
  m: string;
  /** Session id: the token lives no longer than this session. */
  s: string;
  /** App namespace. */
  a: string;
  /** Expiry, seconds since the epoch. */
  e: number;
}

const CLAIM_KEYS = ['w', 'm', 's', 'a', 'e'] as const;

/**
 * Signs and reads app tokens: `wpka_{claims}.{signature}`, both base64url; the signature is
 * HMAC-SHA256 of the claims with a key of their own, derived from the platform's secret key.
 * Nothing is stored: the token is checked by its signature, its expiry, and its session's row.
 */
export class AppTokenSigner {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = createHmac('sha256', secretKey).update('wpk app tokens 1').digest();
  }

  sign(claims: AppTokenClaims): string {
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${APP_TOKEN_PREFIX}${body}.${this.mac(body)}`;
  }

  /** The claims of a well-formed token with a valid signature, or null (its expiry is the caller's to judge). */
  read(token: string): AppTokenClaims | null {
    if (!token.startsWith(APP_TOKEN_PREFIX) || token.length > 1000) return null;
    const [body, signature, extra] = token.slice(APP_TOKEN_PREFIX.length).split('.');
    if (!body || !signature || extra !== undefined) return null;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
      if (!CLAIM_KEYS.every((key) => key in claims) || typeof claims.e !== 'number' || !CLAIM_KEYS.slice(0, 4).every((key) => typeof claims[key] === 'string')) return null;
      return claims as unknown as AppTokenClaims;
    } catch {
      return null;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
