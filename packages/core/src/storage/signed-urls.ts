import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a storage link is bound to. */
export interface LinkClaims {
  /** `get` (download) or `put` (upload). */
  op: 'get' | 'put';
  /** Workspace id. */
  ws: string;
  /** The owner's namespace (an app's, or `platform`). */
  ns: string;
  /** The object's key. */
  key: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** Upload: the largest body accepted. */
  max?: number;
  /** Upload: the media type the body must declare and be. */
  ct?: string;
  /** Download: the file name offered. */
  fn?: string;
}

/** Why a token was refused. */
export type LinkRefusal = 'malformed' | 'expired';

const VERSION = 'v1';

/**
 * Signs and reads storage links: `v1.{claims, base64url JSON}.{HMAC-SHA256, base64url}`. The
 * HMAC key is derived from the platform's secret key (`WPK_SECRET_KEY`, or the one generated
 * under the data directory), so every process of one deployment accepts the others' links.
 */
export class LinkSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('wpk storage links v1').digest();
  }

  private mac(body: string): Buffer {
    return createHmac('sha256', this.key).update(`${VERSION}.${body}`).digest();
  }

  /** The token of these claims. */
  sign(claims: LinkClaims): string {
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${VERSION}.${body}.${this.mac(body).toString('base64url')}`;
  }

  /** The claims of a genuine, unexpired token; otherwise why not. */
  verify(token: string, now = Date.now()): LinkClaims | LinkRefusal {
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== VERSION) return 'malformed';
    const given = Buffer.from(parts[2], 'base64url');
    const expected = this.mac(parts[1]);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'malformed';
    let claims: LinkClaims;
    try {
      claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as LinkClaims;
    } catch {
      return 'malformed';
    }
    if (!claims || (claims.op !== 'get' && claims.op !== 'put') || typeof claims.exp !== 'number' || typeof claims.key !== 'string') return 'malformed';
    if (claims.exp * 1000 <= now) return 'expired';
    return claims;
  }
}
