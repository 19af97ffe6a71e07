import { randomBytes } from 'node:crypto';
import type { SecretBox } from './secret-box.js';

/** The known-device cookie's name. */
export const DEVICE_COOKIE = 'wpk_device';

/** A known-device cookie is good for 180 days from the sign-in that set it. */
export const DEVICE_TTL_SECONDS = 180 * 24 * 3600;

/** What a valid known-device cookie says: this browser signed in to `accountId` before. */
export interface KnownDevice {
  accountId: string;
  /** Random per cookie: failures through one cookie are counted apart from every other. */
  nonce: string;
}

const PURPOSE = 'known-device:v1';

/**
 * OWASP's device cookies (docs/decisions/0195-known-device-cookies.md): a successful sign-in
 * gets a cookie `v1.<account id>.<nonce>.<issued, unix seconds>.<HMAC>` signed with the server
 * secret. It holds no password and no session: it only lets that account's sign-ins from this
 * browser skip the account's lockout and take the password-check places kept for trusted work.
 */
export class KnownDevices {
  constructor(
    private readonly secrets: SecretBox,
    private readonly clock: () => Date,
  ) {}

  /** A fresh cookie value for `accountId`. */
  issue(accountId: string): string {
    const data = ['v1', accountId, randomBytes(12).toString('base64url'), String(Math.floor(this.clock().getTime() / 1000))].join('.');
    return `${data}.${this.secrets.sign(PURPOSE, data)}`;
  }

  /** The device a cookie value stands for, or null when it is absent, forged, malformed or expired. */
  read(value: unknown): KnownDevice | null {
    if (typeof value !== 'string' || value.length > 300) return null;
    const parts = value.split('.');
    if (parts.length !== 5 || parts[0] !== 'v1') return null;
    const [, accountId, nonce, issued, signature] = parts as [string, string, string, string, string];
    if (!this.secrets.verify(PURPOSE, parts.slice(0, 4).join('.'), signature)) return null;
    const age = this.clock().getTime() / 1000 - Number(issued);
    if (!Number.isFinite(age) || age < -300 || age > DEVICE_TTL_SECONDS) return null;
    return { accountId, nonce };
  }
}
