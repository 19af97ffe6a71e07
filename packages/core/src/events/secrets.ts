import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** File, in the data directory, that keeps the generated broker secret of a self-hosted install. */
export const BROKER_SECRET_FILE = 'broker-secret';

export interface BrokerSecretSource {
  /** An explicit secret (option), wins over everything. */
  explicit?: string;
  env?: NodeJS.ProcessEnv;
  dataDir: string;
  /** In-memory runtimes (tests) get a fresh secret of their own unless one is given. */
  ephemeral?: boolean;
}

/**
 * The secret shared by the platform and the broker: `BROKER_SECRET` when set; otherwise the one
 * kept in `{dataDir}/broker-secret`, generated (32 random bytes, hex, mode 0600) on first use.
 */
export function resolveBrokerSecret(source: BrokerSecretSource): string {
  const given = source.explicit ?? (source.env ?? process.env).BROKER_SECRET;
  if (given !== undefined && given !== '') {
    if (given.length < 16) throw new Error('BROKER_SECRET must be at least 16 characters long');
    return given;
  }
  if (source.ephemeral) return randomBytes(32).toString('hex');
  const file = path.join(source.dataDir, BROKER_SECRET_FILE);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(source.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  try {
    fs.writeFileSync(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
    return secret;
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw error;
  }
}

/**
 * The secret of one third-party app: it signs the app's ingress calls and the deliveries the app
 * receives. Derived from the broker secret, so nothing needs storing, and a third party never
 * holds the broker secret itself (which would let it forge deliveries to every app).
 */
export function appSecret(brokerSecret: string, slug: string): string {
  return createHmac('sha256', brokerSecret).update(`wpk-app-secret:${slug}`).digest('hex');
}

/** The secret deliveries to `participant` are signed with: the broker secret for first-party apps and the runtime. */
export function signingSecretFor(brokerSecret: string, participant: { slug: string; firstParty: boolean }): string {
  return participant.firstParty ? brokerSecret : appSecret(brokerSecret, participant.slug);
}
