import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { HashingLimiter, type HashingLimits, type HashingTrust } from './hashing-limiter.js';

const KEY_LENGTH = 64;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

// scrypt needs 128 * N * r bytes; Node's default maxmem (32 MiB) refuses N=2^17, r=8 (128 MiB).
const scryptOptions = (logN: number, r: number, p: number): ScryptOptions => ({ N: 2 ** logN, r, p, maxmem: 2 * 128 * 2 ** logN * r + 1024 * 1024 });

/**
 * Who a hash is computed for: a network client, by its address (null when the socket has none;
 * those share one bound) and, for a sign-in, the account whose valid known-device cookie it
 * showed; or the runtime itself (CLI commands, seeding), which is not bounded.
 */
export type HashRequester = { ip: string | null; knownDevice?: string } | 'runtime';

/**
 * Password hashing with Node's scrypt (N=2^17, r=8, p=1 by default; no native module).
 * The stored form names its parameters, `scrypt$17$8$1$<salt>$<hash>`, so a cost change
 * never breaks existing hashes. Every hash and check a client causes goes through the
 * hashing limiter (429 with `Retry-After` when it is saturated), so a flood of sign-ins
 * cannot starve the libuv thread pool that every other request needs too.
 */
export class PasswordHasher {
  private dummy?: Promise<string>;
  /** The bound on this process's hashing work. */
  readonly limiter: HashingLimiter;

  constructor(
    private readonly logN: number,
    limits: HashingLimits,
  ) {
    this.limiter = new HashingLimiter(limits);
  }

  /** The hash to store for `password`; throws TooManyRequestsError when hashing is saturated. */
  async hash(password: string, requester: HashRequester): Promise<string> {
    return this.bounded(requester, () => this.hashNow(password));
  }

  /**
   * True when `password` matches `stored`. A missing hash still costs one scrypt run, so timing
   * does not tell. Throws TooManyRequestsError (nothing evaluated) when hashing is saturated.
   */
  async verify(password: string, stored: string | null | undefined, requester: HashRequester): Promise<boolean> {
    return this.bounded(requester, () => this.verifyNow(password, stored));
  }

  /**
   * Throws TooManyRequestsError when hashing for `requester` would be refused right now, so a
   * request that will need a hash is turned away before it costs any other work.
   */
  admit(requester: HashRequester): void {
    if (requester !== 'runtime') this.limiter.check(...this.placeOf(requester));
  }

  /** Notes a failed sign-in from `ip`: its next password checks are untrusted for a while. */
  recordFailure(ip: string | null): void {
    this.limiter.recordFailure(ip ?? 'unknown');
  }

  private bounded<T>(requester: HashRequester, work: () => Promise<T>): Promise<T> {
    if (requester === 'runtime') return work();
    const [client, trust] = this.placeOf(requester);
    return this.limiter.run(client, work, trust);
  }

  /** Whose place the work takes (a known device is bounded per device, not per address) and how far it is trusted. */
  private placeOf(requester: { ip: string | null; knownDevice?: string }): [string, HashingTrust] {
    if (requester.knownDevice !== undefined) return [`device:${requester.knownDevice}`, 'known-device'];
    const ip = requester.ip ?? 'unknown';
    return [ip, this.limiter.failedRecently(ip) ? 'untrusted' : 'clean-address'];
  }

  private async hashNow(password: string): Promise<string> {
    const salt = randomBytes(SALT_LENGTH);
    const key = await derive(password, salt, scryptOptions(this.logN, 8, 1));
    return ['scrypt', this.logN, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  private async verifyNow(password: string, stored: string | null | undefined): Promise<boolean> {
    const target = stored ?? (await this.dummyHash());
    const parts = target.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [, logN, r, p, salt, expected] = parts;
    const expectedKey = Buffer.from(expected, 'base64url');
    const key = await derive(password, Buffer.from(salt, 'base64url'), scryptOptions(Number(logN), Number(r), Number(p)));
    const match = key.length === expectedKey.length && timingSafeEqual(key, expectedKey);
    return stored ? match : false;
  }

  private dummyHash(): Promise<string> {
    this.dummy ??= this.hashNow(randomBytes(16).toString('hex'));
    return this.dummy;
  }
}
