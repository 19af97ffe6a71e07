import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header carrying the hex HMAC-SHA256 of the exact body bytes. */
export const SIGNATURE_HEADER = 'x-broker-signature';
/** Header carrying the delivery id (a UUID, the same on every attempt of one delivery). */
export const EVENT_ID_HEADER = 'x-broker-event-id';
/** Header carrying the attempt number: 1 on the first delivery, 2 on the first retry, ... */
export const ATTEMPT_HEADER = 'x-broker-delivery-attempt';
/** Header naming the app that calls the broker's ingress (remote emitters). */
export const APP_HEADER = 'x-broker-app';

/** Hex HMAC-SHA256 of `body` (the exact bytes sent) with `secret`. */
export function signBody(body: string | Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * True when `signature` is the hex HMAC-SHA256 of `body` with `secret`. The comparison runs in
 * constant time; a missing or malformed signature is simply false.
 */
export function verifySignature(body: string | Uint8Array, signature: string | string[] | null | undefined, secret: string): boolean {
  const given = Array.isArray(signature) ? signature[0] : signature;
  if (typeof given !== 'string' || !/^[0-9a-fA-F]{64}$/.test(given.trim())) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given.trim(), 'hex'));
}
