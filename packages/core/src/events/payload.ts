import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** What a redacted field shows in logs and listings. */
export const MASK = '[REDACTED]';

/**
 * Removes object properties whose value is null, at any depth (specification: "Null payload
 * values are removed before validation"). Array elements are kept as they are: dropping one
 * would shift the meaning of the others.
 */
export function removeNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => (item !== null && typeof item === 'object' ? removeNulls(item) : item)) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item === null || item === undefined) continue;
    out[key] = item !== null && typeof item === 'object' ? removeNulls(item) : item;
  }
  return out as T;
}

/** JSON with object keys sorted, so equal payloads give equal text whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function mapPath(payload: Record<string, unknown>, path: string, fn: (value: unknown) => unknown): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  if (!(head in payload)) return payload;
  const current = payload[head];
  if (rest.length === 0) return { ...payload, [head]: fn(current) };
  if (!current || typeof current !== 'object' || Array.isArray(current)) return payload;
  return { ...payload, [head]: mapPath(current as Record<string, unknown>, rest.join('.'), fn) };
}

/** The payload with every redacted path replaced by `[REDACTED]` (for logs and listings). */
export function maskPayload(payload: Record<string, unknown>, redact: string[]): Record<string, unknown> {
  return redact.reduce((acc, path) => mapPath(acc, path, () => MASK), payload);
}

interface Sealed {
  $sealed: string;
}

function isSealed(value: unknown): value is Sealed {
  return !!value && typeof value === 'object' && typeof (value as Sealed).$sealed === 'string' && Object.keys(value).length === 1;
}

/**
 * Seals redacted fields at rest (AES-256-GCM, key derived from the broker secret): the outbox and
 * event log never hold them in clear, while the broker can still deliver them to subscribers.
 */
export class PayloadSealer {
  private readonly key: Buffer;
  private readonly hashKey: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('wpk-event-seal-v1').digest();
    this.hashKey = createHmac('sha256', secret).update('wpk-event-dedupe-v1').digest();
  }

  seal(payload: Record<string, unknown>, redact: string[]): Record<string, unknown> {
    return redact.reduce((acc, path) => mapPath(acc, path, (value) => (isSealed(value) ? value : this.sealValue(value))), payload);
  }

  unseal(payload: Record<string, unknown>, redact: string[]): Record<string, unknown> {
    return redact.reduce((acc, path) => mapPath(acc, path, (value) => (isSealed(value) ? this.unsealValue(value) : value)), payload);
  }

  /** Opens every sealed field wherever it sits (deliveries do not depend on the current catalog). */
  unsealAll<T>(value: T): T {
    if (isSealed(value)) return this.unsealValue(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.unsealAll(item)) as T;
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value as Record<string, unknown>)) out[key] = this.unsealAll(item);
      return out as T;
    }
    return value;
  }

  /** A keyed hash of the clear payload, for deduplication (keyed, so it reveals nothing of sealed fields). */
  hash(payload: Record<string, unknown>): string {
    return createHmac('sha256', this.hashKey).update(canonicalJson(payload)).digest('hex');
  }

  private sealValue(value: unknown): Sealed {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return { $sealed: `v1.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${data.toString('base64url')}` };
  }

  private unsealValue(value: Sealed): unknown {
    const [version, iv, tag, data] = value.$sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unreadable sealed payload field');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const clear = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    return JSON.parse(clear);
  }
}
