import path from 'node:path';

/** Everything the runtime reads from its environment, resolved once at start-up. */
export interface RuntimeConfig {
  /** PostgreSQL URL; when absent the embedded database is used. */
  databaseUrl?: string;
  /** Where the embedded database, generated secrets and dev mail live. */
  dataDir: string;
  /** Workspaces are served on `{subdomain}.{baseDomain}`. */
  baseDomain: string;
  host: string;
  port: number;
  logLevel: string;
  /** Use an in-memory embedded database (tests); ignored when databaseUrl is set. */
  inMemory?: boolean;
  /** Identity: the parent domain the session cookie is set on (`COOKIE_DOMAIN`, default the base domain). */
  cookieDomain: string;
  /** Identity: session cookie carries `Secure` (`COOKIE_SECURE`; default on, except for a local `localhost` base domain). */
  cookieSecure: boolean;
  /** Identity: how long an elevation (admin mode) lasts, in minutes (`ELEVATION_MINUTES`, default 15). */
  elevationMinutes: number;
  /** Mail: SMTP server URL (`SMTP_URL`); when absent, mails are written as files under `{dataDir}/mail`. */
  smtpUrl?: string;
  /** Mail: the From address (`MAIL_FROM`). */
  mailFrom: string;
  /** Identity: key that encrypts TOTP secrets at rest (`WPK_SECRET_KEY`); generated under dataDir when absent. */
  secretKey?: string;
  /** Identity: scrypt cost as log2(N); 17 (N=2^17) by default. Tests may lower it; never read from the environment. */
  scryptLogN: number;
}

/**
 * Options that override the environment. `databaseUrl: null` forces the embedded database even
 * when `DATABASE_URL` is set (`wpk dev`); `undefined` (or absent) falls back to `DATABASE_URL`.
 */
export type RuntimeConfigInput = Partial<Omit<RuntimeConfig, 'databaseUrl'>> & { databaseUrl?: string | null };

/** Builds the runtime config from explicit options, then the environment, then defaults. */
export function resolveConfig(input: RuntimeConfigInput = {}, env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  const port = input.port ?? (env.PORT ? Number(env.PORT) : 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(env.PORT ?? input.port)}`);
  }
  return {
    databaseUrl: input.databaseUrl === null ? undefined : (input.databaseUrl ?? (env.DATABASE_URL || undefined)),
    dataDir: path.resolve(input.dataDir ?? env.WPK_DATA_DIR ?? '.wpk/data'),
    baseDomain: (input.baseDomain ?? env.BASE_DOMAIN ?? 'localhost').toLowerCase(),
    host: input.host ?? env.HOST ?? '127.0.0.1',
    port,
    logLevel: input.logLevel ?? env.WPK_LOG_LEVEL ?? env.LOG_LEVEL ?? 'info',
    inMemory: input.inMemory ?? false,
    ...identityConfig(input, env),
  };
}

/** Identity and mail settings (cookie, elevation window, SMTP, secret key). */
function identityConfig(input: RuntimeConfigInput, env: NodeJS.ProcessEnv): Pick<RuntimeConfig, 'cookieDomain' | 'cookieSecure' | 'elevationMinutes' | 'smtpUrl' | 'mailFrom' | 'secretKey' | 'scryptLogN'> {
  const baseDomain = (input.baseDomain ?? env.BASE_DOMAIN ?? 'localhost').toLowerCase();
  const cookieDomain = (input.cookieDomain ?? env.COOKIE_DOMAIN ?? baseDomain).toLowerCase().replace(/^\./, '');
  const local = cookieDomain === 'localhost' || cookieDomain.endsWith('.localhost');
  let cookieSecure = input.cookieSecure ?? !local;
  if (input.cookieSecure === undefined && env.COOKIE_SECURE !== undefined && env.COOKIE_SECURE !== '') {
    if (!/^(true|false|1|0)$/i.test(env.COOKIE_SECURE)) throw new Error(`COOKIE_SECURE must be true or false, got ${JSON.stringify(env.COOKIE_SECURE)}`);
    cookieSecure = /^(true|1)$/i.test(env.COOKIE_SECURE);
  }
  const elevationMinutes = input.elevationMinutes ?? (env.ELEVATION_MINUTES ? Number(env.ELEVATION_MINUTES) : 15);
  if (!Number.isInteger(elevationMinutes) || elevationMinutes < 1 || elevationMinutes > 24 * 60) {
    throw new Error(`ELEVATION_MINUTES must be an integer from 1 to 1440, got ${JSON.stringify(env.ELEVATION_MINUTES ?? input.elevationMinutes)}`);
  }
  const scryptLogN = input.scryptLogN ?? 17;
  if (!Number.isInteger(scryptLogN) || scryptLogN < 10 || scryptLogN > 20) throw new Error(`scryptLogN must be an integer from 10 to 20, got ${scryptLogN}`);
  const secretKey = input.secretKey ?? (env.WPK_SECRET_KEY || undefined);
  if (secretKey !== undefined && secretKey.length < 32) throw new Error('WPK_SECRET_KEY must be at least 32 characters long');
  return {
    cookieDomain,
    cookieSecure,
    elevationMinutes,
    smtpUrl: input.smtpUrl ?? (env.SMTP_URL || undefined),
    mailFrom: input.mailFrom ?? env.MAIL_FROM ?? `Workspace Platform <no-reply@${baseDomain === 'localhost' ? 'localhost.localdomain' : baseDomain}>`,
    secretKey,
    scryptLogN,
  };
}
