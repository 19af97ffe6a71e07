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
}

export type RuntimeConfigInput = Partial<RuntimeConfig>;

/** Builds the runtime config from explicit options, then the environment, then defaults. */
export function resolveConfig(input: RuntimeConfigInput = {}, env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  const port = input.port ?? (env.PORT ? Number(env.PORT) : 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(env.PORT ?? input.port)}`);
  }
  return {
    databaseUrl: input.databaseUrl ?? (env.DATABASE_URL || undefined),
    dataDir: path.resolve(input.dataDir ?? env.WPK_DATA_DIR ?? '.wpk/data'),
    baseDomain: (input.baseDomain ?? env.BASE_DOMAIN ?? 'localhost').toLowerCase(),
    host: input.host ?? env.HOST ?? '127.0.0.1',
    port,
    logLevel: input.logLevel ?? env.WPK_LOG_LEVEL ?? env.LOG_LEVEL ?? 'info',
    inMemory: input.inMemory ?? false,
  };
}
