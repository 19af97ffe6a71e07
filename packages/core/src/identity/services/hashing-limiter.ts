import { TooManyRequestsError } from '@wpk/sdk';

/** Bounds of password-hashing work in one server process (see config.ts for the defaults). */
export interface HashingLimits {
  /** Hashes computed at once; each scrypt run holds one libuv thread (and 128 MiB at N=2^17). */
  concurrency: number;
  /** Hashes waiting for a slot, first come first served; beyond that, 429. */
  queue: number;
  /** Hashes in flight (running or waiting) per client address; beyond that, 429. */
  perClient: number;
}

/** The `Retry-After` of a refusal: about the time one hash takes to leave a slot free. */
export const HASHING_RETRY_AFTER_SECONDS = 1;

/** The 429 messages of the limiter. */
export const HASHING_REFUSALS = {
  client: 'Too many password checks in progress from your address; try again shortly',
  busy: 'The server is busy checking passwords; try again shortly',
} as const;

/**
 * Bounds password hashing so a flood cannot exhaust it: at most `concurrency` hashes run, at
 * most `queue` wait (in arrival order), and one client address has at most `perClient` running
 * or waiting. Anything beyond is refused at once with 429 and `Retry-After` rather than queued,
 * so a flood from one address costs others at most its `perClient` share of the slots. A slot
 * is freed when the work settles, whether it succeeded or threw.
 */
export class HashingLimiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly limits: HashingLimits) {}

  /**
   * Throws the TooManyRequestsError `run` would throw for `client` right now, reserving nothing:
   * lets a request be refused before it does any other work (`run` decides for good).
   */
  check(client: string): void {
    if ((this.inFlight.get(client) ?? 0) >= this.limits.perClient) throw new TooManyRequestsError(HASHING_REFUSALS.client, HASHING_RETRY_AFTER_SECONDS);
    if (this.running >= this.limits.concurrency && this.waiting.length >= this.limits.queue) throw new TooManyRequestsError(HASHING_REFUSALS.busy, HASHING_RETRY_AFTER_SECONDS);
  }

  /** Runs `work` for `client` once a slot is free; throws TooManyRequestsError when a bound is reached. */
  async run<T>(client: string, work: () => Promise<T>): Promise<T> {
    this.check(client);
    const mine = this.inFlight.get(client) ?? 0;
    const free = this.running < this.limits.concurrency;
    this.inFlight.set(client, mine + 1);
    try {
      if (free) this.running += 1;
      else await new Promise<void>((resolve) => this.waiting.push(resolve));
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

  /** Hashes running and waiting now (for tests and diagnostics). */
  load(): { running: number; waiting: number; clients: number } {
    return { running: this.running, waiting: this.waiting.length, clients: this.inFlight.size };
  }

  // The slot passes straight to the oldest waiter, so a newcomer never overtakes the queue.
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}
