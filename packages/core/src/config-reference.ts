/**
 * The one list of everything a self-hoster can configure: every environment variable the
 * platform, the broker and the CLI read, and every field of a project's `wpk.config.json`.
 * docs/configuration.md is generated from it (`npx tsx cli/scripts/configuration-doc.ts`), and
 * cli/test/docs.test.ts fails when the document is stale, when code reads a variable that is not
 * listed here, or when a listed variable is read nowhere.
 *
 * The values are parsed and checked where they are used (config.ts, events/config.ts,
 * events/secrets.ts, the CLI's options): a bad one stops start-up with one line naming it.
 */

export type ConfigGroup = 'Server' | 'Database' | 'Domains and hosts' | 'Security' | 'Mail' | 'File storage' | 'Event bus' | 'Logs and diagnostics' | 'Tests';

export interface ConfigVariable {
  name: string;
  group: ConfigGroup;
  /** What it does and what it accepts (bounds, forms). */
  description: string;
  /** The value used when it is unset, as prose (`none` when unset means off or absent). */
  default: string;
  /** A secret: never logged, never echoed in an error; keep it out of version control. */
  secret?: boolean;
  /** Read by these commands only (default: every process that opens the platform). */
  readBy?: string;
}

export const CONFIG_GROUPS: ConfigGroup[] = ['Server', 'Database', 'Domains and hosts', 'Security', 'Mail', 'File storage', 'Event bus', 'Logs and diagnostics', 'Tests'];

export const CONFIG_VARIABLES: ConfigVariable[] = [
  // Server
  { name: 'HOST', group: 'Server', default: '`127.0.0.1`', description: 'Address `wpk start` and `wpk dev` listen on; `0.0.0.0` for every interface.' },
  { name: 'PORT', group: 'Server', default: '`3000`', description: 'TCP port `wpk start` and `wpk dev` listen on (0-65535; 0 picks a free one).' },
  { name: 'REQUEST_TIMEOUT_MS', group: 'Server', default: '`10000`', description: "How long a client may take to send a request's headers and body, 100-10000 ms; then 408 and the connection closes." },
  { name: 'WPK_CONFIG', group: 'Server', default: 'the first of `wpk.config.json`, `.ts`, `.mjs`, `.js` in the working directory', description: "The project's config file (the same as `wpk --config <file>`). Relative paths inside it, and the default data directory, resolve against the file's directory, so a server does not depend on its working directory." },
  { name: 'WPK_STRICT_APP_ROLES', group: 'Server', default: 'off (or the config file\'s `strictAppRoles`)', description: '`1` runs each app under its own database role (PostgreSQL only): an app can then reach only its own schema.' },
  // Database
  { name: 'DATABASE_URL', group: 'Database', default: 'the embedded database (PGlite) in `WPK_DATA_DIR`', description: 'PostgreSQL URL, e.g. `postgres://wpk:secret@127.0.0.1:5432/wpk`. `wpk dev` ignores it (always embedded).', secret: true },
  { name: 'WPK_DATA_DIR', group: 'Database', default: '`.wpk/data` (`.wpk/dev` for `wpk dev`), under the project directory', description: 'Where the embedded database, generated secrets (`secret-key`, `broker-secret`), dev mail and local files live. Back it up with the database.' },
  // Domains and hosts
  { name: 'BASE_DOMAIN', group: 'Domains and hosts', default: '`localhost`', description: 'Workspaces answer on `{subdomain}.{BASE_DOMAIN}`; the base domain itself serves sign-up, sign-in and `/openapi.json`.' },
  { name: 'PUBLIC_URL', group: 'Domains and hosts', default: '`https://{BASE_DOMAIN}` (`http://localhost:{PORT}` for a local base domain)', description: 'The origin browsers reach the base domain at: scheme, `BASE_DOMAIN`, optional port, no path. Links in mail and the trusted origins (CSRF, CORS) come from it, never from a request\'s `Host`.' },
  { name: 'ALLOWED_HOSTS', group: 'Domains and hosts', default: 'none', description: "Comma-separated extra host names or IP addresses requests may name (a load balancer's probe by IP). The base domain, its subdomains, loopback names, the listening address and `WPK_SELF_URL`'s host are always allowed; any other `Host` is 404." },
  { name: 'COOKIE_DOMAIN', group: 'Domains and hosts', default: '`BASE_DOMAIN`', description: 'Parent domain the session cookie is set on.' },
  { name: 'COOKIE_SECURE', group: 'Domains and hosts', default: '`true`, except for a `localhost` cookie domain', description: '`true` or `false`: the session cookie carries `Secure` (served over TLS only).' },
  // Security
  { name: 'WPK_SECRET_KEY', group: 'Security', default: 'generated once into `{WPK_DATA_DIR}/secret-key`', description: 'At least 32 characters. Encrypts TOTP secrets at rest and signs file links; every server of one install must share it.', secret: true },
  { name: 'ELEVATION_MINUTES', group: 'Security', default: '`15`', description: 'How long an elevation (admin mode, `POST /sessions/elevate`) lasts, 1-1440 minutes.' },
  { name: 'PASSWORD_HASH_CONCURRENCY', group: 'Security', default: '`2`', description: 'Password hashes (scrypt, N=2^17) run at once per process, 1-10000. Size it to the cores.' },
  { name: 'PASSWORD_HASH_QUEUE', group: 'Security', default: '`8`', description: 'Password hashes waiting per process, 0-10000; beyond them a sign-in answers 429 with `Retry-After`.' },
  { name: 'PASSWORD_HASH_PER_CLIENT', group: 'Security', default: '`2`', description: 'Password hashes running or waiting per client address, 1-10000; beyond them 429.' },
  // Mail
  { name: 'SMTP_URL', group: 'Mail', default: 'none: mails are written as files under `{WPK_DATA_DIR}/mail`', description: 'SMTP server for outgoing mail, e.g. `smtp://user:pass@smtp.example.com:587` (`smtps://` for implicit TLS).', secret: true },
  { name: 'MAIL_FROM', group: 'Mail', default: '`Workspace Platform <no-reply@{BASE_DOMAIN}>`', description: 'The From address of the platform\'s mail.' },
  // File storage
  { name: 'STORAGE_DRIVER', group: 'File storage', default: '`local`', description: 'Where files (`ctx.storage`, avatars) go: `local` (a directory) or `s3` (any S3-compatible service). Several servers need `s3` or a shared directory.' },
  { name: 'STORAGE_DIR', group: 'File storage', default: '`{WPK_DATA_DIR}/storage`', description: "The local driver's directory." },
  { name: 'STORAGE_MAX_OBJECT_BYTES', group: 'File storage', default: '`52428800` (50 MiB)', description: 'The largest file stored, 1 byte to 5 GiB.' },
  { name: 'STORAGE_S3_ENDPOINT', group: 'File storage', default: "AWS's own endpoint for the region", description: "The S3 service's http(s) URL, without credentials in it." },
  { name: 'STORAGE_S3_BUCKET', group: 'File storage', default: 'none (required with `STORAGE_DRIVER=s3`)', description: 'The bucket (3-63 lower-case letters, digits, dots, hyphens); create it yourself and keep it private.' },
  { name: 'STORAGE_S3_REGION', group: 'File storage', default: '`us-east-1`', description: 'The region name.' },
  { name: 'STORAGE_S3_PREFIX', group: 'File storage', default: 'none', description: 'A key prefix inside the bucket (path segments, no leading or trailing `/`).' },
  { name: 'STORAGE_S3_FORCE_PATH_STYLE', group: 'File storage', default: '`true` when an endpoint is given, else `false`', description: '`true` or `false`: path-style addressing (most S3-compatible servers want it).' },
  { name: 'STORAGE_S3_ACCESS_KEY_ID', group: 'File storage', default: "none: the AWS SDK's own credential chain", description: 'Access key id; set with `STORAGE_S3_SECRET_ACCESS_KEY` or not at all.' },
  { name: 'STORAGE_S3_SECRET_ACCESS_KEY', group: 'File storage', default: "none: the AWS SDK's own credential chain", description: 'Secret access key; set with `STORAGE_S3_ACCESS_KEY_ID` or not at all.', secret: true },
  // Event bus
  { name: 'BROKER_SECRET', group: 'Event bus', default: 'generated once into `{WPK_DATA_DIR}/broker-secret`', description: 'At least 16 characters (32+ recommended), the same for every server and broker: signs deliveries and derives each app\'s signing secret.', secret: true },
  { name: 'WPK_BROKER', group: 'Event bus', default: 'a broker runs inside `wpk start`', description: '`external` (or `off`) keeps the broker out of the server process; run `wpk broker` units instead.' },
  { name: 'WPK_SELF_URL', group: 'Event bus', default: 'the address the server recorded when it started', description: "Base URL a standalone broker uses to reach the server's in-process apps, e.g. `http://127.0.0.1:3001`." },
  { name: 'WPK_BROKER_CONCURRENCY', group: 'Event bus', default: '`64`', description: 'Deliveries in flight at once per broker process (`wpk broker --concurrency`).' },
  { name: 'WPK_BROKER_POLL_MS', group: 'Event bus', default: '`1000` (`100` for a standalone broker on the embedded database)', description: 'Longest idle sleep between looks for work; wake-ups (LISTEN/NOTIFY) make it a safety net.' },
  { name: 'WPK_BROKER_TIMEOUT_MS', group: 'Event bus', default: '`10000`', description: 'Per-attempt HTTP timeout of a delivery.' },
  { name: 'WPK_BROKER_RETRY_DELAY_MS', group: 'Event bus', default: '`2000`', description: 'Delay before the first retry of a failed delivery.' },
  { name: 'WPK_BROKER_RETRY_FACTOR', group: 'Event bus', default: '`3`', description: 'Each retry waits this many times longer than the one before (at least 1).' },
  { name: 'WPK_BROKER_RETRY_MAX_MS', group: 'Event bus', default: '`3600000`', description: 'The longest wait between retries.' },
  { name: 'WPK_BROKER_CLAIM_SECONDS', group: 'Event bus', default: 'the delivery timeout + 20 s', description: 'How long a claimed attempt stays with a broker process before another takes it over (after a crash).' },
  { name: 'WPK_BROKER_MONITOR_SECONDS', group: 'Event bus', default: '`15`', description: 'How often expired claims are looked for.' },
  { name: 'WPK_BROKER_CATALOG_RECHECK_MS', group: 'Event bus', default: '`2000`', description: 'A standalone broker that meets an event its catalog does not name re-reads the catalog at most this often.' },
  { name: 'WPK_EVENTS_RETENTION_DAYS', group: 'Event bus', default: '`7`', description: 'Days the event log and delivery log are kept; dedupe keys live as long.' },
  // Logs and diagnostics
  { name: 'WPK_LOG_LEVEL', group: 'Logs and diagnostics', default: '`info` for servers (`wpk start`, `wpk dev`, `wpk broker`), `warn` for one-shot commands', description: 'pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. Logs are JSON lines on stdout.' },
  { name: 'LOG_LEVEL', group: 'Logs and diagnostics', default: 'none', description: 'Read when `WPK_LOG_LEVEL` is unset (a common convention of process managers).' },
  { name: 'WPK_STATEMENT_CHECK', group: 'Tests', default: 'on in `@wpk/testing`', description: '`off` turns off the test harness\'s check that every statement on a tenant table names its workspace.', readBy: 'app tests (`@wpk/testing`)' },
  { name: 'WPK_STATEMENT_REPORT', group: 'Tests', default: 'none', description: 'A file the statement check also appends every violation to, one JSON object a line (an inventory over a whole suite).', readBy: 'app tests (`@wpk/testing`)' },
  { name: 'TEST_DATABASE_URL', group: 'Tests', default: 'the embedded database', description: 'PostgreSQL URL the test harness creates a scratch database on (`DATABASE_URL` also works).', readBy: 'app tests (`@wpk/testing`)', secret: true },
];

export interface ProjectConfigField {
  name: string;
  type: string;
  description: string;
}

/** The fields of `wpk.config.json` (project-config.ts refuses any other). */
export const PROJECT_CONFIG_FIELDS: ProjectConfigField[] = [
  {
    name: 'apps',
    type: 'array',
    description:
      'The apps the server loads, in order. Each entry is a package name (`"@wpk/app-tasks"`), a directory starting with `.` (`"./apps/hello"`), or an object: `{"package": name}`, `{"dir": path}`, `{"manifest": path, "address": url}` (a remote app served elsewhere), or in a code config (`wpk.config.ts`, `.mjs`, `.js`) `{"app": definition, "dir": path}`; each with an optional `"firstParty": true` (its routes are served without the `/ext/{publisher}/{slug}` prefix).',
  },
  { name: 'strictAppRoles', type: 'boolean', description: 'Run each app under its own database role (PostgreSQL only); `WPK_STRICT_APP_ROLES=1` does the same.' },
  { name: '$schema', type: 'string', description: 'Ignored: lets an editor find a schema for the file.' },
];
