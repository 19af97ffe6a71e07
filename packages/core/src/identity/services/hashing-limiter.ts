import { TooManyRequestsError } from '@wpk/sdk';

/** Bounds of password-hashing work in one server process (see config.ts for the defaults). */
export interface HashingLimits {
  /** Hashes computed at once; each scrypt run holds one libuv thread (and 128 MiB at N=2^17). */
  concurrency: number;
  /** Hashes waiting for a slot, first come first served; beyond that, 429. */
  queue: number;
  /** Hashes in flight (running or waiting) per client address; beyond that, 429. */
  perClient: number;
  /**
   * Places (of `concurrency + queue`) kept for trusted work: a known device, or an address that
   * has not failed a sign-in recently. Untrusted work may hold only the rest; beyond that, 429.
   */
  reserved: number;
}

/**
 * How far a piece of work is trusted, best first: a browser with a known-device cookie of the
 * account, an address with no recent failed sign-in, anything else. Waiting work of a better
 * kind runs first; `untrusted` work never holds the reserved places.
 */
export type HashingTrust = 'known-device' | 'clean-address' | 'untrusted';

/** How long a failed sign-in makes its address untrusted, and how many addresses are remembered. */
export const FAILURE_MEMORY = { seconds: 900, addresses: 10_000 } as const;

/** The `Retry-After` of a refusal: about the time one hash takes to leave a slot free. */
export const HASHING_RETRY_AFTER_SECONDS = 1;

/** The 429 messages of the limiter. */
export const HASHING_REFUSALS = {
  client: 'Too many password checks in progress from your address; try again shortly',
  busy: 'The server is busy checking passwords; try again shortly',
} as const;

/**
 * Bounds password hashing so a flood cannot exhaust it: at most `concurrency` hashes run, at
 * most `queue` wait, and one client (an address, or a known device) has at most `perClient`
 * running or waiting. Untrusted work (an address that failed a sign-in in the last 15 minutes,
 * without a known-device cookie) may hold only `concurrency + queue - reserved` places, so a
 * flood is refused first and the reserved places stay for trusted work; waiting trusted work
 * runs before waiting untrusted work (each kind in arrival order). Anything beyond a bound is
 * refused at once with 429 and `Retry-After` rather than queued. A slot is freed when the work
 * settles, whether it succeeded or threw.
 */
export class HashingLimiter {
  private running = 0;
  private readonly waiting: Record<HashingTrust, Array<() => void>> = { 'known-device': [], 'clean-address': [], untrusted: [] };
  private readonly inFlight = new Map<string, number>();
  /** Address → when it last failed a sign-in (ms), oldest first. */
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly limits: HashingLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Throws the TooManyRequestsError `run` would throw for `client` right now, reserving nothing:
   * lets a request be refused before it does any other work (`run` decides for good).
   */
  check(client: string, trust: HashingTrust = 'clean-address'): void {
    if ((this.inFlight.get(client) ?? 0) >= this.limits.perClient) throw new TooManyRequestsError(HASHING_REFUSALS.client, HASHING_RETRY_AFTER_SECONDS);
    const places = this.limits.concurrency + this.limits.queue - (trust === 'untrusted' ? this.limits.reserved : 0);
    if (this.running + this.waitingCount() >= places) throw new TooManyRequestsError(HASHING_REFUSALS.busy, HASHING_RETRY_AFTER_SECONDS);
  }

  /** Runs `work` for `client` once a slot is free; throws TooManyRequestsError when a bound is reached. */
  async run<T>(client: string, work: () => Promise<T>, trust: HashingTrust = 'clean-address'): Promise<T> {
    this.check(client, trust);
    const mine = this.inFlight.get(client) ?? 0;
    const free = this.running < this.limits.concurrency;
    this.inFlight.set(client, mine + 1);
    try {
      if (free) this.running += 1;
      else await new Promise<void>((resolve) => this.waiting[trust].push(resolve));
      try {
        return await work();
      } finally {
        this.release();
      }
    } finally {
      const left = (this.inFlight.get(client) ?? 1) - 1;
      if (left === 0) this.inFlight.delete(client);
      else this.inFlight.set(client, left);
    }
  }

  /** Notes a failed sign-in from `address`: for the next 15 minutes its work is untrusted. */
  recordFailure(address: string): void {
    this.failures.delete(address);
    this.failures.set(address, this.now());
    // Bounded memory: the oldest entries go first (a Map iterates in insertion order).
    while (this.failures.size > FAILURE_MEMORY.addresses) this.failures.delete(this.failures.keys().next().value!);
  }

  /** True when `address` failed a sign-in within the last 15 minutes. */
  failedRecently(address: string): boolean {
    const at = this.failures.get(address);
    if (at === undefined) return false;
    if (this.now() - at < FAILURE_MEMORY.seconds * 1000) return true;
    this.failures.delete(address);
    return false;
  }

  /** Hashes running and waiting now (for tests and diagnostics). */
  load(): { running: number; waiting: number; clients: number } {
    return { running: this.running, waiting: this.waitingCount(), clients: this.inFlight.size };
  }

  private waitingCount(): number {
    return this.waiting['known-device'].length + this.waiting['clean-address'].length + this.waiting.untrusted.length;
  }

  // The slot passes straight to the oldest waiter of the best kind, so a newcomer never overtakes the queue.
  private release(): void {
    const next = this.waiting['known-device'].shift() ?? this.waiting['clean-address'].shift() ?? this.waiting.untrusted.shift();
    if (next) next();
    else this.running -= 1;
  }
}
