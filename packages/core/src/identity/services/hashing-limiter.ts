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
 * running or waiting. Places are kept for trusted work: untrusted work (an address that failed a
 * sign-in in the last 15 minutes, without a known-device cookie) may hold only
 * `concurrency + queue - reserved` places, work from a clean address all but half the reserved
 * ones (so a burst from fresh addresses cannot take the last places from known devices), a known
 * device all of them. Of the running slots, untrusted work holds at most `concurrency - 1` (when
 * there are two or more), so a trusted check waits for no untrusted one to finish. Waiting work
 * runs known devices first, then clean addresses, then untrusted work, each in arrival order.
 * Anything beyond a bound is refused at once with 429 and `Retry-After` rather than queued. A slot
 * is freed when the work settles, whether it succeeded or threw.
 */
export class HashingLimiter {
  private running = 0;
  private runningUntrusted = 0;
  private readonly waiting: Record<HashingTrust, Array<() => void>> = { 'known-device': [], 'clean-address': [], untrusted: [] };
  private readonly inFlight = new Map<string, number>();
  /** Address → when it last failed a sign-in (ms), oldest first. */
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly limits: HashingLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** The places (running and waiting) work of this trust may find in use and still be admitted. */
  private placesFor(trust: HashingTrust): number {
    const all = this.limits.concurrency + this.limits.queue;
    if (trust === 'untrusted') return all - this.limits.reserved;
    if (trust === 'clean-address') return all - Math.floor(this.limits.reserved / 2);
    return all;
  }

  /** The running slots untrusted work may hold at once. */
  private untrustedSlots(): number {
    return this.limits.concurrency > 1 ? this.limits.concurrency - 1 : this.limits.concurrency;
  }

  /**
   * Throws the TooManyRequestsError `run` would throw for `client` right now, reserving nothing:
   * lets a request be refused before it does any other work (`run` decides for good).
   */
  check(client: string, trust: HashingTrust = 'clean-address'): void {
    if ((this.inFlight.get(client) ?? 0) >= this.limits.perClient) throw new TooManyRequestsError(HASHING_REFUSALS.client, HASHING_RETRY_AFTER_SECONDS);
    if (this.running + this.waitingCount() >= this.placesFor(trust)) throw new TooManyRequestsError(HASHING_REFUSALS.busy, HASHING_RETRY_AFTER_SECONDS);
  }

  /** Runs `work` for `client` once a slot is free; throws TooManyRequestsError when a bound is reached. */
  async run<T>(client: string, work: () => Promise<T>, trust: HashingTrust = 'clean-address'): Promise<T> {
    this.check(client, trust);
    const mine = this.inFlight.get(client) ?? 0;
    this.inFlight.set(client, mine + 1);
    try {
      if (this.mayStart(trust)) this.start(trust);
      else await new Promise<void>((resolve) => this.waiting[trust].push(resolve));
      try {
        return await work();
      } finally {
        this.release(trust);
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

  /** A newcomer starts at once only when a slot is free for it and nobody it must not overtake waits. */
  private mayStart(trust: HashingTrust): boolean {
    if (this.running >= this.limits.concurrency) return false;
    if (trust === 'untrusted') return this.runningUntrusted < this.untrustedSlots() && this.waitingCount() === 0;
    // Trusted work overtakes waiting untrusted work (held back by its slot bound), never trusted work.
    return this.waiting['known-device'].length === 0 && (trust === 'known-device' || this.waiting['clean-address'].length === 0);
  }

  private start(trust: HashingTrust): void {
    this.running += 1;
    if (trust === 'untrusted') this.runningUntrusted += 1;
  }

  // Freed slots go to the oldest waiter of the best kind that may run, so a newcomer never overtakes the queue.
  private release(trust: HashingTrust): void {
    this.running -= 1;
    if (trust === 'untrusted') this.runningUntrusted -= 1;
    while (this.running < this.limits.concurrency) {
      const kind: HashingTrust | null =
        this.waiting['known-device'].length > 0 ? 'known-device'
        : this.waiting['clean-address'].length > 0 ? 'clean-address'
        : this.waiting.untrusted.length > 0 && this.runningUntrusted < this.untrustedSlots() ? 'untrusted'
        : null;
      if (kind === null) return;
      this.start(kind);
      this.waiting[kind].shift()!();
    }
  }
}
