import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { redactUrl } from '../db/index.js';
import { createLogger } from '../logger.js';
import { Broker } from './broker.js';
import { resolveBrokerTuning, type BrokerTuning } from './config.js';
import type { RetryPolicy } from './deliverer.js';
import { resolveBrokerSecret } from './secrets.js';

/** File in the data directory where a server on the embedded database leaves its database URL for `wpk broker`. */
export const EMBEDDED_URL_FILE = 'embedded-database-url';

/** Options of a broker that runs as its own process (`wpk broker`). */
export interface StandaloneBrokerOptions {
  /** PostgreSQL URL; default `DATABASE_URL`, else the URL a running server on the embedded database left in the data directory. */
  databaseUrl?: string;
  /** Data directory (`WPK_DATA_DIR`, default `.wpk/data`): holds the generated broker secret and the embedded database URL. */
  dataDir?: string;
  /** Default `BROKER_SECRET`, else the secret in the data directory. */
  brokerSecret?: string;
  /** The platform server's base URL, for deliveries to its in-process apps (`WPK_SELF_URL`; default: what the server recorded). */
  selfUrl?: string;
  logger?: Logger;
  tuning?: Partial<Omit<BrokerTuning, 'retry'>> & { retry?: Partial<RetryPolicy> };
  env?: NodeJS.ProcessEnv;
}

/** Writes the embedded database's URL where `wpk broker` finds it (server side). */
export function recordEmbeddedUrl(dataDir: string, url: string): void {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, EMBEDDED_URL_FILE), `${url}\n`, { mode: 0o600 });
}

/**
 * Starts a broker in this process, with no server and no app code: it reads the catalog the
 * servers stored, relays the outbox and delivers. Stop it with `broker.stop()`.
 */
export async function startStandaloneBroker(options: StandaloneBrokerOptions = {}): Promise<Broker> {
  const env = options.env ?? process.env;
  const dataDir = path.resolve(options.dataDir ?? env.WPK_DATA_DIR ?? '.wpk/data');
  let databaseUrl = options.databaseUrl ?? (env.DATABASE_URL || undefined);
  if (!databaseUrl) {
    try {
      databaseUrl = fs.readFileSync(path.join(dataDir, EMBEDDED_URL_FILE), 'utf8').trim();
    } catch {
      throw new Error(`No database to broker for: set DATABASE_URL, or start the server on the embedded database in ${dataDir} first`);
    }
  }
  const logger = options.logger ?? createLogger(env.WPK_LOG_LEVEL ?? env.LOG_LEVEL ?? 'info');
  const broker = new Broker({
    databaseUrl,
    brokerSecret: resolveBrokerSecret({ explicit: options.brokerSecret, env, dataDir }),
    logger,
    tuning: resolveBrokerTuning(options.tuning, env),
    selfUrl: (options.selfUrl ?? env.WPK_SELF_URL)?.replace(/\/+$/, '') || undefined,
  });
  try {
    await broker.start();
  } catch (error) {
    throw new Error(`The broker cannot start on ${redactUrl(databaseUrl)}: ${(error as Error).message}`, { cause: error });
  }
  return broker;
}
