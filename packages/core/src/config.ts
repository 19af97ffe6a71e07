import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isIP } from 'node:net';
import type { BillingConfigInput } from './billing/config.js';
import { webRtcConfig, type WebRtcConfig } from './signaling/config.js';

/** Everything the runtime reads from its environment, resolved once at start-up. */
export interface RuntimeConfig {
  /** PostgreSQL URL; when absent the embedded database is used. */
  databaseUrl?: string;
  /** Where the embedded database, generated secrets and dev mail live. */
  dataDir: string;
  /** Workspaces are served on `{subdomain}.{baseDomain}`. */
  baseDomain: string;
  /**
   * The origin browsers reach the base domain at (`PUBLIC_URL`): scheme, base domain and optional
   * port, e.g. `https://wpk.example.com`. Mail links and the trusted origins (CSRF, CORS) come
   * from it, never from a request's Host.
   */
  publicUrl: string;
  /**
   * Host names besides the base domain and its subdomains that requests may name (`ALLOWED_HOSTS`,
   * comma-separated): loopback names and the listening address are always in it.
   */
  allowedHosts: string[];
  /**
   * Reverse proxies whose `X-Forwarded-For` names the client (`TRUSTED_PROXIES`, comma-separated IP
   * addresses and CIDR ranges; default none): the socket's address is the client's unless it is one
   * of them (server/client-address.ts).
   */
  trustedProxies: string[];
  /**
   * How long a client may take to send a request's headers and body, in ms (`REQUEST_TIMEOUT_MS`,
   * 100-10000, default 10000); a streamed upload to a signed link is bounded by its pauses instead
   * (server/body-timeout.ts).
   */
  requestTimeoutMs: number;
  /**
   * The admission gate of each process (server/admission.ts): requests handled at once
   * (`MAX_REQUESTS_IN_FLIGHT`, 1-100000, default 64), requests waiting for a slot (`MAX_QUEUED_REQUESTS`,
   * 0-100000, default 256) and how long one may wait (`REQUEST_QUEUE_MS`, 0-10000, default 250);
   * beyond them, 503 with `Retry-After`.
   */
  admission: { maxInFlight: number; maxQueue: number; maxQueueMs: number };
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
  /** Identity: sign-up verification mails per hour for the whole server (`SIGNUP_MAILS_PER_HOUR`, 1-100000, default 100); then 429. */
  signupMailsPerHour: number;
  /** Identity: key that encrypts TOTP secrets at rest (`WPK_SECRET_KEY`); generated under dataDir when absent. */
  secretKey?: string;
  /** Identity: scrypt cost as log2(N); 17 (N=2^17) by default. Tests may lower it; never read from the environment. */
  scryptLogN: number;
  /**
   * Identity: bounds of password hashing in one process (`PASSWORD_HASH_CONCURRENCY`, default 2;
   * `PASSWORD_HASH_QUEUE`, default 8; `PASSWORD_HASH_PER_CLIENT`, default 2): hashes run at once,
   * hashes waiting, hashes in flight per client address; `PASSWORD_HASH_RESERVED`, default 4 (at
   * most half the places): places kept for known devices and addresses with no recent failed
   * sign-in. Beyond them, 429 with `Retry-After`.
   */
  passwordHashing: { concurrency: number; queue: number; perClient: number; reserved: number };
  /** File storage (`ctx.storage`, avatars): where objects go and how large one may be. */
  storage: StorageConfig;
  /** Billing: the plan catalog and the payment provider (`billing/config.ts` reads `BILLING_*`, `PAYMENT_PROVIDER`, `STRIPE_*` when the billing plugin registers). */
  billing?: BillingConfigInput;
  /** Notifications: web push (VAPID) and the phone-push provider. */
  push: PushConfig;
  /** `POST /ai/commands`: the OpenAI-compatible chat-completions service, or none (answers list the matching records). */
  ai: AiConfig | null;
  /** WebRTC signaling: STUN/TURN servers handed to clients, the mesh's size (`WEBRTC_*`). */
  webrtc: WebRtcConfig;
}

/** `VAPID_*`, `PUSH_*`, `FCM_SERVICE_ACCOUNT_FILE`. */
export interface PushConfig {
  /** `VAPID_PUBLIC_KEY` and `VAPID_PRIVATE_KEY` (both or neither); absent: generated once under the data directory. */
  vapidKeys?: { publicKey: string; privateKey: string };
  /** `VAPID_SUBJECT`: the contact push services see (`mailto:` or `https:`); default `mailto:` the MAIL_FROM address. */
  vapidSubject: string;
  /** `PUSH_TTL_SECONDS` (default 86400, 0-2419200): how long a push service keeps an undelivered message. */
  ttlSeconds: number;
  /** `PUSH_ALLOW_HTTP_ENDPOINTS` (default false): accept `http:` push endpoints (a local push service). */
  allowHttpEndpoints: boolean;
  /** `FCM_SERVICE_ACCOUNT_FILE`: the Firebase service account; absent: the local phone-push provider. */
  fcm?: { project_id: string; client_email: string; private_key: string; token_uri?: string };
}

/** `AI_BASE_URL`, `AI_MODEL`, `AI_API_KEY`, `AI_TIMEOUT_MS`. The key is kept off JSON.stringify and util.inspect. */
export interface AiConfig {
  /** The API's base URL, e.g. `http://127.0.0.1:11434/v1` (Ollama) or `https://api.openai.com/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** How long one answer may take (default 30000 ms). */
  timeoutMs: number;
}

/** `STORAGE_*`: the file storage's driver and limit. */
export interface StorageConfig {
  /** `local` (default: files under `dir`) or `s3` (any S3-compatible service). */
  driver: 'local' | 's3';
  /** Largest object in bytes (`STORAGE_MAX_OBJECT_BYTES`, default 50 MiB, at most 5 GiB). */
  maxObjectBytes: number;
  /** Local driver: the directory (`STORAGE_DIR`, default `{dataDir}/storage`). */
  dir: string;
  /** S3 driver: endpoint, bucket, region, key prefix and credentials (`STORAGE_S3_*`). */
  s3?: S3StorageConfig;
}

/** `STORAGE_S3_*`. The secret access key is kept off `JSON.stringify` and `util.inspect`, so it never reaches a log. */
export interface S3StorageConfig {
  /** `STORAGE_S3_ENDPOINT`: the service's URL (absent: AWS's own endpoint for the region). */
  endpoint?: string;
  /** `STORAGE_S3_BUCKET`. */
  bucket: string;
  /** `STORAGE_S3_REGION` (default `us-east-1`). */
  region: string;
  /** `STORAGE_S3_PREFIX`: a key prefix inside the bucket (default none). */
  prefix: string;
  /** `STORAGE_S3_FORCE_PATH_STYLE` (default true when an endpoint is given: most S3-compatible servers want it). */
  forcePathStyle: boolean;
  /** `STORAGE_S3_ACCESS_KEY_ID` and `STORAGE_S3_SECRET_ACCESS_KEY`; absent: the AWS SDK's default credential chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/**
 * Options that override the environment. `databaseUrl: null` forces the embedded database even
 * when `DATABASE_URL` is set (`wpk dev`); `undefined` (or absent) falls back to `DATABASE_URL`.
 */
export type RuntimeConfigInput = Partial<Omit<RuntimeConfig, 'databaseUrl' | 'passwordHashing' | 'admission' | 'storage' | 'push' | 'ai' | 'webrtc'>> & {
  webrtc?: Partial<WebRtcConfig>;
  databaseUrl?: string | null;
  push?: Partial<PushConfig>;
  /** `null`: no model even when `AI_BASE_URL` is set. */
  ai?: (Partial<AiConfig> & { baseUrl: string; model: string }) | null;
  passwordHashing?: Partial<RuntimeConfig['passwordHashing']>;
  admission?: Partial<RuntimeConfig['admission']>;
  storage?: Partial<Omit<StorageConfig, 's3'>> & { s3?: Partial<S3StorageConfig> };
};

/**
 * Builds the runtime config from explicit options, then the environment, then defaults. Relative
 * directories resolve against `baseDir`: the project directory (the config file's, or the working
 * directory); docs/configuration.md lists every variable (config-reference.ts).
 */
export function resolveConfig(input: RuntimeConfigInput = {}, env: NodeJS.ProcessEnv = process.env, baseDir = process.cwd()): RuntimeConfig {
  const port = input.port ?? (env.PORT ? Number(env.PORT) : 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(env.PORT ?? input.port)}`);
  }
  const baseDomain = (input.baseDomain ?? env.BASE_DOMAIN ?? 'localhost').toLowerCase();
  const host = input.host ?? env.HOST ?? '127.0.0.1';
  const identity = identityConfig(input, env);
  const dataDir = path.resolve(baseDir, input.dataDir ?? env.WPK_DATA_DIR ?? '.wpk/data');
  return {
    databaseUrl: input.databaseUrl === null ? undefined : (input.databaseUrl ?? (env.DATABASE_URL || undefined)),
    dataDir,
    baseDomain,
    publicUrl: publicUrlOf(input.publicUrl ?? (env.PUBLIC_URL || undefined), baseDomain, identity.cookieSecure, port),
    allowedHosts: allowedHostsOf(input.allowedHosts ?? env.ALLOWED_HOSTS, host, env.WPK_SELF_URL),
    trustedProxies: trustedProxiesOf(input.trustedProxies ?? env.TRUSTED_PROXIES),
    requestTimeoutMs: requestTimeoutOf(input.requestTimeoutMs ?? env.REQUEST_TIMEOUT_MS),
    admission: admissionConfig(input, env),
    host,
    port,
    logLevel: input.logLevel ?? env.WPK_LOG_LEVEL ?? env.LOG_LEVEL ?? 'info',
    inMemory: input.inMemory ?? false,
    ...identity,
    passwordHashing: passwordHashingConfig(input, env),
    storage: storageConfig(input.storage ?? {}, env, dataDir, baseDir),
    ...(input.billing ? { billing: input.billing } : {}),
    push: pushConfig(input.push ?? {}, env, identity.mailFrom),
    ai: aiConfig(input.ai, env),
    webrtc: webRtcConfig(input.webrtc, env),
  };
}

const truthy = (value: string | boolean | undefined, name: string): boolean => {
  if (value === undefined || typeof value === 'boolean') return value ?? false;
  if (!/^(true|false|1|0)$/i.test(value)) throw new Error(`${name} must be true or false, got ${JSON.stringify(value)}`);
  return /^(true|1)$/i.test(value);
};

/** `VAPID_*`, `PUSH_*`, `FCM_SERVICE_ACCOUNT_FILE`, checked. */
export function pushConfig(input: Partial<PushConfig>, env: NodeJS.ProcessEnv, mailFrom: string): PushConfig {
  const publicKey = input.vapidKeys?.publicKey ?? (env.VAPID_PUBLIC_KEY || undefined);
  const privateKey = input.vapidKeys?.privateKey ?? (env.VAPID_PRIVATE_KEY || undefined);
  if ((publicKey === undefined) !== (privateKey === undefined)) throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither (a pair is then generated under the data directory)');
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  const vapidSubject = input.vapidSubject ?? (env.VAPID_SUBJECT || `mailto:${address}`);
  if (!/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(vapidSubject)) throw new Error(`VAPID_SUBJECT must be a mailto: address or an https: URL, got ${JSON.stringify(vapidSubject)}`);
  const ttlRaw = input.ttlSeconds ?? (env.PUSH_TTL_SECONDS || undefined);
  const ttlSeconds = ttlRaw === undefined ? 86400 : Number(ttlRaw);
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 0 || ttlSeconds > 2419200) throw new Error(`PUSH_TTL_SECONDS must be an integer from 0 to 2419200 (4 weeks), got ${JSON.stringify(ttlRaw)}`);
  const allowHttpEndpoints = truthy(input.allowHttpEndpoints ?? (env.PUSH_ALLOW_HTTP_ENDPOINTS || undefined), 'PUSH_ALLOW_HTTP_ENDPOINTS');
  let fcm = input.fcm;
  const file = env.FCM_SERVICE_ACCOUNT_FILE;
  if (!fcm && file) {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`FCM_SERVICE_ACCOUNT_FILE: cannot read ${file} as JSON (${(error as Error).message})`, { cause: error });
    }
    const text = (key: string) => (typeof parsed[key] === 'string' && parsed[key] !== '' ? (parsed[key] as string) : undefined);
    const projectId = text('project_id');
    const clientEmail = text('client_email');
    const key = text('private_key');
    if (!projectId || !clientEmail || !key) throw new Error(`FCM_SERVICE_ACCOUNT_FILE: ${file} must hold project_id, client_email and private_key (a Google service account)`);
    fcm = { project_id: projectId, client_email: clientEmail, private_key: key, ...(text('token_uri') ? { token_uri: text('token_uri') } : {}) };
    Object.defineProperty(fcm, 'private_key', { value: key, enumerable: false });
  }
  return { ...(publicKey && privateKey ? { vapidKeys: hiddenPair(publicKey, privateKey) } : {}), vapidSubject, ttlSeconds, allowHttpEndpoints, ...(fcm ? { fcm } : {}) };
}

function hiddenPair(publicKey: string, privateKey: string): { publicKey: string; privateKey: string } {
  const pair = { publicKey } as { publicKey: string; privateKey: string };
  Object.defineProperty(pair, 'privateKey', { value: privateKey, enumerable: false });
  return pair;
}

/** `AI_*`, checked: with no `AI_BASE_URL` there is no model. */
export function aiConfig(input: RuntimeConfigInput['ai'], env: NodeJS.ProcessEnv): AiConfig | null {
  if (input === null) return null;
  const baseUrl = input?.baseUrl ?? (env.AI_BASE_URL || undefined);
  if (baseUrl === undefined) return null;
  let url: URL | null;
  try {
    url = new URL(baseUrl);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) {
    throw new Error('AI_BASE_URL must be the http(s) base URL of an OpenAI-compatible API without credentials or query, e.g. http://127.0.0.1:11434/v1');
  }
  const model = input?.model ?? (env.AI_MODEL || undefined);
  if (!model || model.length > 200) throw new Error('AI_MODEL must name the model (1-200 characters) when AI_BASE_URL is set');
  const timeoutRaw = input?.timeoutMs ?? (env.AI_TIMEOUT_MS || undefined);
  const timeoutMs = timeoutRaw === undefined ? 30000 : Number(timeoutRaw);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 600000) throw new Error(`AI_TIMEOUT_MS must be an integer from 100 to 600000, got ${JSON.stringify(timeoutRaw)}`);
  const config: AiConfig = { baseUrl: url.href.replace(/\/+$/, ''), model, timeoutMs };
  const apiKey = input?.apiKey ?? (env.AI_API_KEY || undefined);
  if (apiKey) Object.defineProperty(config, 'apiKey', { value: apiKey, enumerable: false });
  return config;
}

const DEFAULT_MAX_OBJECT_BYTES = 50 * 1024 * 1024;
const LARGEST_MAX_OBJECT_BYTES = 5 * 1024 * 1024 * 1024;

/** `STORAGE_*`, checked: a bad value stops start-up naming the variable (never echoing a secret). */
export function storageConfig(input: NonNullable<RuntimeConfigInput['storage']>, env: NodeJS.ProcessEnv, dataDir: string, baseDir = process.cwd()): StorageConfig {
  const driver = input.driver ?? (env.STORAGE_DRIVER || 'local');
  if (driver !== 'local' && driver !== 's3') throw new Error(`STORAGE_DRIVER must be local or s3, got ${JSON.stringify(driver)}`);
  const maxRaw = input.maxObjectBytes ?? (env.STORAGE_MAX_OBJECT_BYTES || undefined);
  const maxObjectBytes = maxRaw === undefined ? DEFAULT_MAX_OBJECT_BYTES : Number(maxRaw);
  if (!Number.isInteger(maxObjectBytes) || maxObjectBytes < 1 || maxObjectBytes > LARGEST_MAX_OBJECT_BYTES) {
    throw new Error(`STORAGE_MAX_OBJECT_BYTES must be an integer from 1 to ${LARGEST_MAX_OBJECT_BYTES} (5 GiB), got ${JSON.stringify(maxRaw)}`);
  }
  const dir = path.resolve(baseDir, input.dir ?? (env.STORAGE_DIR || path.join(dataDir, 'storage')));
  const config: StorageConfig = { driver, maxObjectBytes, dir };
  if (driver === 's3') config.s3 = s3Config(input.s3 ?? {}, env);
  return config;
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function s3Config(input: Partial<S3StorageConfig>, env: NodeJS.ProcessEnv): S3StorageConfig {
  const bucket = input.bucket ?? (env.STORAGE_S3_BUCKET || undefined);
  if (!bucket) throw new Error('STORAGE_S3_BUCKET is required when STORAGE_DRIVER is s3');
  if (!BUCKET_NAME.test(bucket)) throw new Error(`STORAGE_S3_BUCKET must be a bucket name (3-63 lower-case letters, digits, dots and hyphens), got ${JSON.stringify(bucket)}`);
  const endpoint = input.endpoint ?? (env.STORAGE_S3_ENDPOINT || undefined);
  if (endpoint !== undefined) {
    let url: URL | null;
    try {
      url = new URL(endpoint);
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
      throw new Error('STORAGE_S3_ENDPOINT must be an http(s) URL without credentials in it, e.g. https://s3.example.com');
    }
  }
  const region = input.region ?? (env.STORAGE_S3_REGION || 'us-east-1');
  if (!/^[a-z0-9-]{1,50}$/.test(region)) throw new Error(`STORAGE_S3_REGION must be a region name such as us-east-1, got ${JSON.stringify(region)}`);
  const prefix = input.prefix ?? env.STORAGE_S3_PREFIX ?? '';
  if (prefix !== '' && !/^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/.test(prefix)) {
    throw new Error(`STORAGE_S3_PREFIX must be path segments of letters, digits, dots, underscores and hyphens separated by /, without a leading or trailing /, got ${JSON.stringify(prefix)}`);
  }
  const pathStyleRaw = input.forcePathStyle ?? (env.STORAGE_S3_FORCE_PATH_STYLE || undefined);
  if (typeof pathStyleRaw === 'string' && !/^(true|false|1|0)$/i.test(pathStyleRaw)) throw new Error(`STORAGE_S3_FORCE_PATH_STYLE must be true or false, got ${JSON.stringify(pathStyleRaw)}`);
  const forcePathStyle = pathStyleRaw === undefined ? endpoint !== undefined : pathStyleRaw === true || (typeof pathStyleRaw === 'string' && /^(true|1)$/i.test(pathStyleRaw));
  const accessKeyId = input.credentials?.accessKeyId ?? (env.STORAGE_S3_ACCESS_KEY_ID || undefined);
  const secretAccessKey = input.credentials?.secretAccessKey ?? (env.STORAGE_S3_SECRET_ACCESS_KEY || undefined);
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new Error('STORAGE_S3_ACCESS_KEY_ID and STORAGE_S3_SECRET_ACCESS_KEY go together: set both, or neither (the AWS SDK then finds credentials itself)');
  }
  const config: S3StorageConfig = { bucket, region, prefix, forcePathStyle, ...(endpoint ? { endpoint } : {}) };
  if (accessKeyId && secretAccessKey) config.credentials = hiddenCredentials(accessKeyId, secretAccessKey);
  return config;
}

/** The credentials with the secret as a non-enumerable property: JSON.stringify, util.inspect and pino skip it. */
function hiddenCredentials(accessKeyId: string, secretAccessKey: string): { accessKeyId: string; secretAccessKey: string } {
  const credentials = { accessKeyId } as { accessKeyId: string; secretAccessKey: string };
  Object.defineProperty(credentials, 'secretAccessKey', { value: secretAccessKey, enumerable: false });
  return credentials;
}

const isLocalDomain = (domain: string) => domain === 'localhost' || domain.endsWith('.localhost');

/**
 * `PUBLIC_URL`, checked and reduced to its origin. Without it: `https://{BASE_DOMAIN}` when the
 * cookie is Secure, else `http://`, with the listening port for a local (`localhost`) base domain.
 */
function publicUrlOf(value: string | undefined, baseDomain: string, secure: boolean, port: number): string {
  if (value === undefined) {
    const withPort = isLocalDomain(baseDomain) && port !== 0 ? `:${port}` : '';
    return new URL(`${secure ? 'https' : 'http'}://${baseDomain}${withPort}`).origin;
  }
  const refuse = () => new Error(`PUBLIC_URL must be the http(s) URL of BASE_DOMAIN (${baseDomain}) with an optional port and no path, e.g. https://${baseDomain}; got ${JSON.stringify(value)}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse();
  }
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !bare || url.hostname !== baseDomain) throw refuse();
  return url.origin;
}

const LOOPBACK = ['localhost', '127.0.0.1', '::1'];
const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '']);
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$|^[0-9a-f:.]+$/;

/** `ALLOWED_HOSTS` plus the names always allowed: loopback, the listening address and `WPK_SELF_URL`'s host. */
function allowedHostsOf(value: string | string[] | undefined, listenHost: string, selfUrl: string | undefined): string[] {
  const listed = (Array.isArray(value) ? value : (value ?? '').split(',')).map((name) => name.trim().toLowerCase()).filter(Boolean);
  for (const name of listed) {
    if (!HOST_NAME.test(name)) throw new Error(`ALLOWED_HOSTS must list host names or IP addresses without port or wildcard, separated by commas; got ${JSON.stringify(name)}`);
  }
  const always = [...LOOPBACK];
  const listening = listenHost.toLowerCase().replace(/^\[|\]$/g, '');
  if (!WILDCARD_ADDRESSES.has(listening)) always.push(listening);
  // A standalone broker reaches the server's in-process apps at WPK_SELF_URL.
  if (selfUrl) {
    try {
      always.push(new URL(selfUrl).hostname.replace(/^\[|\]$/g, ''));
    } catch {
      // Not a URL: the event bus reports it when it uses it.
    }
  }
  return [...new Set([...always, ...listed])];
}

/** `TRUSTED_PROXIES`: each entry checked now, so a typo stops start-up naming it. */
function trustedProxiesOf(value: readonly string[] | string | undefined): string[] {
  const entries = (typeof value === 'string' ? value.split(',') : (value ?? [])).map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const family = isIP(address ?? '');
    if (family === 0) throw new Error(`TRUSTED_PROXIES: ${JSON.stringify(entry)} is not an IP address or CIDR range`);
    if (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128))) throw new Error(`TRUSTED_PROXIES: ${JSON.stringify(entry)} has a bad prefix length`);
  }
  return entries;
}

/** `REQUEST_TIMEOUT_MS`: at most 10 s, so a slow client cannot hold a connection for long. */
function requestTimeoutOf(value: number | string | undefined): number {
  if (value === undefined || value === '') return 10_000;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 100 || ms > 10_000) throw new Error(`REQUEST_TIMEOUT_MS must be an integer from 100 to 10000, got ${JSON.stringify(value)}`);
  return ms;
}

// The pool holds 10 connections (4 embedded): 64 requests in flight is several times what it can
// serve at once, so the bound never bites in normal use, and at saturation an admitted request waits
// at most about 64 / throughput (0.64 s at 100 requests/s) plus its time in the queue.
const ADMISSION = {
  maxInFlight: { env: 'MAX_REQUESTS_IN_FLIGHT', fallback: 64, min: 1, max: 100_000 },
  maxQueue: { env: 'MAX_QUEUED_REQUESTS', fallback: 256, min: 0, max: 100_000 },
  maxQueueMs: { env: 'REQUEST_QUEUE_MS', fallback: 250, min: 0, max: 10_000 },
} as const;

/** Bounds of the admission gate (server/admission.ts). */
function admissionConfig(input: RuntimeConfigInput, env: NodeJS.ProcessEnv): RuntimeConfig['admission'] {
  const read = (name: keyof typeof ADMISSION): number => {
    const { env: variable, fallback, min, max } = ADMISSION[name];
    const given = input.admission?.[name];
    const value = given ?? (env[variable] ? Number(env[variable]) : fallback);
    if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${variable} must be an integer from ${min} to ${max}, got ${JSON.stringify(given ?? env[variable])}`);
    return value;
  };
  return { maxInFlight: read('maxInFlight'), maxQueue: read('maxQueue'), maxQueueMs: read('maxQueueMs') };
}

// Defaults for a 2-core server: one scrypt run at N=2^17 takes ~0.3 s of a core and 128 MiB, so
// two at once keep both cores busy, eight waiting is ~1.2 s of queue, and one address may hold
// two of the ten places.
const PASSWORD_HASHING = {
  concurrency: { env: 'PASSWORD_HASH_CONCURRENCY', fallback: 2, min: 1 },
  queue: { env: 'PASSWORD_HASH_QUEUE', fallback: 8, min: 0 },
  perClient: { env: 'PASSWORD_HASH_PER_CLIENT', fallback: 2, min: 1 },
} as const;

/** Bounds of password hashing (identity/services/hashing-limiter.ts). */
function passwordHashingConfig(input: RuntimeConfigInput, env: NodeJS.ProcessEnv): RuntimeConfig['passwordHashing'] {
  const read = (name: keyof typeof PASSWORD_HASHING): number => {
    const { env: variable, fallback, min } = PASSWORD_HASHING[name];
    const given = input.passwordHashing?.[name];
    const value = given ?? (env[variable] ? Number(env[variable]) : fallback);
    if (!Number.isInteger(value) || value < min || value > 10_000) throw new Error(`${variable} must be an integer from ${min} to 10000, got ${JSON.stringify(given ?? env[variable])}`);
    return value;
  };
  const [concurrency, queue, perClient] = [read('concurrency'), read('queue'), read('perClient')];
  const places = concurrency + queue;
  const given = input.passwordHashing?.reserved ?? (env.PASSWORD_HASH_RESERVED ? Number(env.PASSWORD_HASH_RESERVED) : undefined);
  const reserved = given ?? Math.min(4, Math.floor(places / 2));
  if (!Number.isInteger(reserved) || reserved < 0 || reserved >= places) {
    throw new Error(`PASSWORD_HASH_RESERVED must be an integer from 0 to ${places - 1} (PASSWORD_HASH_CONCURRENCY + PASSWORD_HASH_QUEUE - 1), got ${JSON.stringify(input.passwordHashing?.reserved ?? env.PASSWORD_HASH_RESERVED)}`);
  }
  return { concurrency, queue, perClient, reserved };
}

/** Identity and mail settings (cookie, elevation window, SMTP, secret key). */
function identityConfig(input: RuntimeConfigInput, env: NodeJS.ProcessEnv): Pick<RuntimeConfig, 'cookieDomain' | 'cookieSecure' | 'elevationMinutes' | 'smtpUrl' | 'mailFrom' | 'signupMailsPerHour' | 'secretKey' | 'scryptLogN'> {
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
  const signupMailsPerHour = input.signupMailsPerHour ?? (env.SIGNUP_MAILS_PER_HOUR ? Number(env.SIGNUP_MAILS_PER_HOUR) : 100);
  if (!Number.isInteger(signupMailsPerHour) || signupMailsPerHour < 1 || signupMailsPerHour > 100_000) {
    throw new Error(`SIGNUP_MAILS_PER_HOUR must be an integer from 1 to 100000, got ${JSON.stringify(env.SIGNUP_MAILS_PER_HOUR ?? input.signupMailsPerHour)}`);
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
    signupMailsPerHour,
    secretKey,
    scryptLogN,
  };
}
