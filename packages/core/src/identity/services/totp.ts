import { generateSecret, generateURI, verify } from 'otplib';

/** TOTP parameters: RFC 6238 defaults that every authenticator app understands. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;

/** A fresh base32 secret (160 bits). */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The `otpauth://` URI an authenticator app scans. */
export function totpUri(secret: string, issuer: string, label: string): string {
  return generateURI({ issuer, label, secret, digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, algorithm: 'sha1' });
}

/**
 * Checks a code within ±1 time step. Returns the matched time step, or null. Steps at or
 * before `afterStep` are refused, so a code that was accepted once is never accepted again.
 */
export async function verifyTotp(secret: string, code: string, afterStep: number | null, now = Date.now()): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    algorithm: 'sha1',
    epoch: Math.floor(now / 1000),
    epochTolerance: TOTP_PERIOD_SECONDS,
    ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
