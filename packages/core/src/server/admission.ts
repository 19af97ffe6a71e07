import type { Request } from '@hapi/hapi';
import type { Logger } from 'pino';

/** Bounds of the requests one server process takes on at once (config.ts: `MAX_REQUESTS_IN_FLIGHT`, `MAX_QUEUED_REQUESTS`, `REQUEST_QUEUE_MS`). */
export interface AdmissionLimits {
  /** Requests being handled (admitted, not yet answered) at once. */
  maxInFlight: number;
  /** Requests waiting for a slot, first come first served; beyond them, 503 at once. */
  maxQueue: number;
  /** How long a request may wait for a slot, in ms; then 503. */
  maxQueueMs: number;
}

/** The answer of a refused request: `503` with this body and `Retry-After`. */
export const BUSY_ANSWER = { error: 'The server is busy: try again in a moment', retryAfterSeconds: 1 } as const;

/** At most one `requests shed` line per this many ms, with the count since the last one. */
export const SHED_LOG_INTERVAL_MS = 10_000;

interface Waiter {
  request: Request;
  grant: (admitted: boolean) => void;
  timer: NodeJS.Timeout;
}

/**
 * Paths answered without a slot: `/health` (operators must see a busy server), the static
 * files a page loads (`/assets/*`, the site's `/public/*`: no database work) and the signed
 * links' transfers (`/storage/*`: one look-up, then as long as the client takes to send or
 * receive the file; sixty-four slow uploads would otherwise refuse everyone else). An app's
 * public files (`/public/apps/*`) read its installation, so they take a slot like any request.
 */
export function isExempt(method: string, path: string): boolean {
  if (path.startsWith('/storage/')) return true;
  if (method !== 'get' && method !== 'head') return false;
  if (path === '/health' || path === '/health/') return true;
  return path.startsWith('/assets/') || (path.startsWith('/public/') && !path.startsWith('/public/apps/'));
}

// hapi sets it on every request made by `server.inject`; its types leave it out.
const isInjected = (request: Request): boolean => (request as Request & { isInjected?: boolean }).isInjected === true;

/**
 * The admission gate of one server process (docs/decisions, "Admission control"): at most
 * `maxInFlight` requests are handled at once; the next ones wait in arrival order, at most
 * `maxQueue` of them and each at most `maxQueueMs`; anything beyond is refused at once, having done
 * no work, so the admitted requests keep a bounded latency when the load exceeds what the process
 * can serve. A slot is freed when its request's answer is sent or the request is given up (hapi's
 * `response` event fires once for every request, answered or aborted). Injected requests are never
 * gated: they are the websocket upgrades' probes and calls made by requests already admitted (a
 * page calling the API), which would otherwise wait for a slot their caller holds.
 */
export class AdmissionGate {
  private inFlight = 0;
  private readonly holders = new WeakSet<Request>();
  // A Set iterates in insertion order: the oldest waiter first, and one leaves in O(1).
  private readonly waiting = new Set<Waiter>();
  private readonly waiterOf = new WeakMap<Request, Waiter>();
  private shedSinceLog = 0;
  private logTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly limits: AdmissionLimits,
    private readonly logger: Logger,
  ) {}

  /** True when the request may go on (a slot is held, or it needs none); false: answer 503 now. */
  async admit(request: Request): Promise<boolean> {
    if (isInjected(request) || isExempt(request.method, request.path)) return true;
    if (this.inFlight < this.limits.maxInFlight && this.waiting.size === 0) {
      this.take(request);
      return true;
    }
    if (this.waiting.size >= this.limits.maxQueue || this.limits.maxQueueMs === 0) return this.shed();
    const admitted = await new Promise<boolean>((grant) => {
      const waiter: Waiter = { request, grant, timer: setTimeout(() => this.leave(waiter, false), this.limits.maxQueueMs) };
      this.waiting.add(waiter);
      this.waiterOf.set(request, waiter);
      // A client gone while it waits gives its place up at once (hapi answers it no more).
      request.raw.res.once('close', () => this.leave(waiter, false));
    });
    return admitted || this.shed();
  }

  /** Frees what the request holds: its slot (handed to the oldest waiter still connected) or its place in the queue. */
  release(request: Request): void {
    const waiter = this.waiterOf.get(request);
    if (waiter) this.leave(waiter, false);
    if (!this.holders.has(request)) return;
    this.holders.delete(request);
    this.inFlight -= 1;
    for (const next of this.waiting) {
      if (this.inFlight >= this.limits.maxInFlight) return;
      this.leave(next, next.request.active());
    }
  }

  /** Requests handled and waiting now (tests, diagnostics). */
  load(): { inFlight: number; waiting: number } {
    return { inFlight: this.inFlight, waiting: this.waiting.size };
  }

  private take(request: Request): void {
    this.inFlight += 1;
    this.holders.add(request);
  }

  private leave(waiter: Waiter, admitted: boolean): void {
    if (!this.waiting.delete(waiter)) return;
    clearTimeout(waiter.timer);
    this.waiterOf.delete(waiter.request);
    if (admitted) this.take(waiter.request);
    waiter.grant(admitted);
  }

  // One warn line at the first refusal, then at most one per interval with the count since.
  private shed(): false {
    this.shedSinceLog += 1;
    if (this.logTimer === null) this.flushShedLog();
    return false;
  }

  private flushShedLog(): void {
    this.logTimer = null;
    if (this.shedSinceLog === 0) return;
    const { inFlight, waiting } = this.load();
    this.logger.warn({ shed: this.shedSinceLog, in_flight: inFlight, waiting, max_in_flight: this.limits.maxInFlight, max_queue: this.limits.maxQueue, max_queue_ms: this.limits.maxQueueMs }, 'requests shed: the server is busy');
    this.shedSinceLog = 0;
    this.logTimer = setTimeout(() => this.flushShedLog(), SHED_LOG_INTERVAL_MS);
    this.logTimer.unref();
  }
}
