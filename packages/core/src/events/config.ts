import type { RetryPolicy } from './deliverer.js';

/** How a broker behaves; every field has a default and an environment variable. */
export interface BrokerTuning {
  /** Deliveries in flight at once per process (`WPK_BROKER_CONCURRENCY`, 64). */
  concurrency: number;
  /** Events taken from the outbox per relay transaction (200). */
  relayBatchSize: number;
  /**
   * Longest idle sleep between looks for work (`WPK_BROKER_POLL_MS`). Wake-ups (LISTEN/NOTIFY,
   * or in-process signals) make it a safety net: 1000 ms by default, 100 ms for a standalone
   * broker on the embedded database, which cannot LISTEN.
   */
  pollIntervalMs: number;
  /** Per-attempt HTTP timeout (`WPK_BROKER_TIMEOUT_MS`, 10000). */
  deliveryTimeoutMs: number;
  /** Back-off between attempts (`WPK_BROKER_RETRY_DELAY_MS` 2000, `WPK_BROKER_RETRY_FACTOR` 3, `WPK_BROKER_RETRY_MAX_MS` 3600000). */
  retry: RetryPolicy;
  /** Seconds a claimed attempt stays with a process before another takes it over (`WPK_BROKER_CLAIM_SECONDS`; default timeout + 20 s). */
  claimSeconds: number;
  /** How often expired claims are looked for (`WPK_BROKER_MONITOR_SECONDS`, 15). */
  monitorIntervalSeconds: number;
  /** Take-overs after crashes before an attempt is abandoned (10). */
  crashRetries: number;
  /** A standalone broker re-reads the stored catalog this often (5000 ms) and on NOTIFY. */
  catalogRefreshMs: number;
  /**
   * Events of an action the broker's catalog does not name stay pending; meeting one makes a
   * standalone broker re-read the catalog, at most once per this interval, and look at them
   * again no more often (`WPK_BROKER_CATALOG_RECHECK_MS`, 2000).
   */
  catalogRecheckMs: number;
  /** Connections of the broker's own pool (6; 3 on the embedded database). */
  poolMax?: number;
  /** Days the event log and delivery log are kept (`WPK_EVENTS_RETENTION_DAYS`, 7); dedupe keys live as long. */
  retentionDays: number;
}

function num(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got ${JSON.stringify(raw)}`);
  return value;
}

/** Broker tuning from explicit values, then the environment, then defaults. */
export function resolveBrokerTuning(input: Partial<Omit<BrokerTuning, 'retry'>> & { retry?: Partial<RetryPolicy> } = {}, env: NodeJS.ProcessEnv = process.env): BrokerTuning {
  const deliveryTimeoutMs = input.deliveryTimeoutMs ?? num(env, 'WPK_BROKER_TIMEOUT_MS') ?? 10_000;
  const retry: RetryPolicy = {
    initialDelayMs: input.retry?.initialDelayMs ?? num(env, 'WPK_BROKER_RETRY_DELAY_MS') ?? 2000,
    factor: input.retry?.factor ?? num(env, 'WPK_BROKER_RETRY_FACTOR') ?? 3,
    maxDelayMs: input.retry?.maxDelayMs ?? num(env, 'WPK_BROKER_RETRY_MAX_MS') ?? 3_600_000,
  };
  if (retry.factor < 1) throw new Error('the retry factor must be at least 1 (delays never shrink)');
  return {
    concurrency: Math.max(1, Math.floor(input.concurrency ?? num(env, 'WPK_BROKER_CONCURRENCY') ?? 64)),
    relayBatchSize: Math.max(1, Math.floor(input.relayBatchSize ?? 200)),
    pollIntervalMs: input.pollIntervalMs ?? num(env, 'WPK_BROKER_POLL_MS') ?? 0,
    deliveryTimeoutMs,
    retry,
    claimSeconds: Math.max(1, Math.ceil(input.claimSeconds ?? num(env, 'WPK_BROKER_CLAIM_SECONDS') ?? deliveryTimeoutMs / 1000 + 20)),
    monitorIntervalSeconds: Math.max(1, Math.ceil(input.monitorIntervalSeconds ?? num(env, 'WPK_BROKER_MONITOR_SECONDS') ?? 15)),
    crashRetries: input.crashRetries ?? 10,
    catalogRefreshMs: input.catalogRefreshMs ?? 5000,
    catalogRecheckMs: input.catalogRecheckMs ?? num(env, 'WPK_BROKER_CATALOG_RECHECK_MS') ?? 2000,
    poolMax: input.poolMax,
    retentionDays: input.retentionDays ?? num(env, 'WPK_EVENTS_RETENTION_DAYS') ?? 7,
  };
}
