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

export type ConfigGroup = 'Server' | 'Database' | 'Domains and hosts' | 'Security' | 'Mail' | 'Notifications and push' | 'AI commands' | 'File storage' | 'Calls (WebRTC)' | 'Event bus' | 'Billing' | 'Logs and diagnostics' | 'Tests';

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

export const CONFIG_GROUPS: ConfigGroup[] = ['Server', 'Database', 'Domains and hosts', 'Security', 'Mail', 'Notifications and push', 'AI commands', 'File storage', 'Calls (WebRTC)', 'Event bus', 'Billing', 'Logs and diagnostics', 'Tests'];

export const CONFIG_VARIABLES: ConfigVariable[] = [
  // Server
  { name: 'HOST', group: 'Server', default: '`127.0.0.1`', description: 'Address `wpk start` and `wpk dev` listen on; `0.0.0.0` for every interface.' },
  { name: 'PORT', group: 'Server', default: '`3000`', description: 'TCP port `wpk start` and `wpk dev` listen on (0-65535; 0 picks a free one).' },
  { name: 'REQUEST_TIMEOUT_MS', group: 'Server', default: '`10000`', description: "How long a client may take to send a request's headers and body, 100-10000 ms; then 408 and the connection closes. A file sent to a signed upload link may take longer as long as it keeps coming: no pause over this." },
  { name: 'MAX_REQUESTS_IN_FLIGHT', group: 'Server', default: '`64`', description: 'Requests one server process handles at once, 1-100000 (`/health`, `/assets/*`, `/public/*`, `/storage/*` transfers and websocket upgrades are not counted). Beyond it a request waits for a slot (`MAX_QUEUED_REQUESTS`, `REQUEST_QUEUE_MS`), then is refused with 503 and `Retry-After: 1` before any work is done. See docs/self-hosting.md, "Overload".' },
  { name: 'MAX_QUEUED_REQUESTS', group: 'Server', default: '`256`', description: 'Requests waiting for a slot per process, first come first served, 0-100000; one more is refused with 503 at once.' },
  { name: 'REQUEST_QUEUE_MS', group: 'Server', default: '`250`', description: 'How long a request may wait for a slot, 0-10000 ms; then 503 with `Retry-After: 1`. 0 refuses at once when every slot is taken.' },
  { name: 'WPK_CONFIG', group: 'Server', default: 'the first of `wpk.config.json`, `.ts`, `.mjs`, `.js` in the working directory', description: "The project's config file (the same as `wpk --config <file>`). Relative paths inside it, and the default data directory, resolve against the file's directory, so a server does not depend on its working directory." },
  { name: 'WPK_STRICT_APP_ROLES', group: 'Server', default: 'off (or the config file\'s `strictAppRoles`)', description: '`1` runs each app under its own database role (PostgreSQL only): an app can then reach only its own schema.' },
  // Database
  { name: 'DATABASE_URL', group: 'Database', default: 'the embedded database (PGlite) in `WPK_DATA_DIR`', description: 'PostgreSQL URL, e.g. `postgres://wpk:secret@127.0.0.1:5432/wpk`. `wpk dev` ignores it (always embedded).', secret: true },
  { name: 'WPK_DATA_DIR', group: 'Database', default: '`.wpk/data` (`.wpk/dev` for `wpk dev`), under the project directory', description: 'Where the embedded database, generated secrets (`secret-key`, `broker-secret`, `vapid-keys.json`), dev mail and local files live. Back it up with the database.' },
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
  { name: 'PASSWORD_HASH_RESERVED', group: 'Security', default: '`4` (at most half of the places)', description: 'Of the `PASSWORD_HASH_CONCURRENCY + PASSWORD_HASH_QUEUE` places, how many only trusted password checks may take: a browser with a known-device cookie of the account, or an address that has not failed a sign-in in the last 15 minutes (the last half of them: known devices only). 0 to one less than the places; a flood from failing addresses is refused (429) before it reaches them.' },
  { name: 'TRUSTED_PROXIES', group: 'Security', default: 'none (the socket\'s address is the client\'s)', description: 'Comma-separated IP addresses and CIDR ranges of your reverse proxies, e.g. `127.0.0.1,10.0.0.0/8`. When a request\'s socket is one of them, the client is the right-most `X-Forwarded-For` entry that is not itself listed; every per-address limit (password checks, wrong codes, app rate limits) and the activity trail use it. Leave it unset without a proxy: a client could otherwise name any address.' },
  { name: 'SIGNUP_MAILS_PER_HOUR', group: 'Security', default: '`100`', description: 'Sign-up verification mails the whole server sends per hour (1-100000), beside the 5 per address; beyond it `POST /signup` answers 429 with `Retry-After`.' },
  // Mail
  { name: 'SMTP_URL', group: 'Mail', default: 'none: mails are written as files under `{WPK_DATA_DIR}/mail`', description: 'SMTP server for outgoing mail, e.g. `smtp://user:pass@smtp.example.com:587` (`smtps://` for implicit TLS).', secret: true },
  { name: 'MAIL_FROM', group: 'Mail', default: '`Workspace Platform <no-reply@{BASE_DOMAIN}>`', description: 'The From address of the platform\'s mail.' },
  { name: 'MAIL_SMTP_PORT', group: 'Mail', default: 'none: the mail app runs no SMTP listener', description: "The mail app's inbound SMTP listener port (25 in production; 0 picks a free one), started by `wpk start` after the HTTP server listens.", readBy: 'the mail app' },
  { name: 'MAIL_SMTP_HOST', group: 'Mail', default: '`0.0.0.0`', description: "Address the mail app's SMTP listener binds.", readBy: 'the mail app' },
  { name: 'MAIL_HOSTNAME', group: 'Mail', default: '`localhost`', description: "The mail app's SMTP greeting name, and its default MX host.", readBy: 'the mail app' },
  { name: 'MAIL_MX_HOST', group: 'Mail', default: '`MAIL_HOSTNAME`', description: 'The host the MX records of hosted domains must name (shown in their DNS records, checked at verification).', readBy: 'the mail app' },
  { name: 'MAIL_MAX_MESSAGE_BYTES', group: 'Mail', default: '`26214400` (25 MB)', description: 'Largest message the mail app\'s listener takes; larger ones are refused with 552.', readBy: 'the mail app' },
  { name: 'MAIL_RELAY_URL', group: 'Mail', default: 'none: outgoing mail of the mail app stays queued', description: 'Where the mail app hands outgoing mail (DKIM-signed): `smtp://user:pass@relay.example.net:587` or `smtps://…:465`.', secret: true, readBy: 'the mail app' },
  { name: 'MAIL_SPF_INCLUDE', group: 'Mail', default: 'none', description: "The relay's SPF mechanism (`include:_spf.relay.example.net`), added to the SPF record of hosted domains.", readBy: 'the mail app' },
  { name: 'MAIL_TLS_CERT', group: 'Mail', default: 'none: a self-signed certificate for `MAIL_HOSTNAME` is generated once into `{WPK_DATA_DIR}/mail-tls-cert.pem` (key `mail-tls-key.pem`)', description: "PEM file of the certificate the mail app's SMTP listener offers with STARTTLS; set with `MAIL_TLS_KEY`.", readBy: 'the mail app' },
  { name: 'MAIL_TLS_KEY', group: 'Mail', default: 'see `MAIL_TLS_CERT`', description: "PEM file of the private key of `MAIL_TLS_CERT`.", readBy: 'the mail app' },
  { name: 'MAIL_ALLOW_PRIVATE_HOSTS', group: 'Mail', default: '`false`', description: "`true` lets members' connected accounts name IMAP and SMTP servers on private networks (loopback, RFC 1918, link-local, unique-local); by default such a host is refused, so a member cannot make the server reach internal hosts.", readBy: 'the mail app' },
  { name: 'MAIL_DNS_SERVERS', group: 'Mail', default: "none: the system's resolvers", description: 'The DNS servers the mail app verifies domains (their ownership token and mail records) and checks inbound mail with: IP addresses, each with an optional port, comma-separated (`10.0.0.53,[2001:db8::53]:53`).', readBy: 'the mail app' },
  { name: 'MAIL_SYNC_INTERVAL_SECONDS', group: 'Mail', default: '`120`', description: "How often the mail app syncs members' connected accounts with their IMAP servers; `0` turns the periodic sync off.", readBy: 'the mail app' },
  // Notifications and push
  { name: 'VAPID_PUBLIC_KEY', group: 'Notifications and push', default: 'generated once, with the private key, into `{WPK_DATA_DIR}/vapid-keys.json`', description: 'The web-push VAPID public key (base64url, an uncompressed P-256 point); set it with `VAPID_PRIVATE_KEY` when servers do not share a data directory. Browsers subscribe with it: changing it orphans every subscription.' },
  { name: 'VAPID_PRIVATE_KEY', group: 'Notifications and push', default: 'generated once into `{WPK_DATA_DIR}/vapid-keys.json`', description: 'The VAPID private key (base64url, 32 bytes) that signs web-push requests; set with `VAPID_PUBLIC_KEY`.', secret: true },
  { name: 'VAPID_SUBJECT', group: 'Notifications and push', default: '`mailto:` the `MAIL_FROM` address', description: 'The contact push services see in the VAPID token: a `mailto:` address or an `https:` URL.' },
  { name: 'PUSH_TTL_SECONDS', group: 'Notifications and push', default: '`86400`', description: 'How long a push service keeps a push for an offline browser, 0-2419200 seconds.' },
  { name: 'PUSH_ALLOW_HTTP_ENDPOINTS', group: 'Notifications and push', default: '`false`', description: '`true` accepts `http:` push endpoints (a push service on loopback in development); real push services are `https:`.' },
  { name: 'FCM_SERVICE_ACCOUNT_FILE', group: 'Notifications and push', default: 'none: phone pushes go to the local provider (kept in memory, for development)', description: 'A Google service account JSON file (`project_id`, `client_email`, `private_key`): phone pushes go through Firebase Cloud Messaging (Android, and iOS through Firebase\'s APNs link).', secret: true },
  // AI commands
  { name: 'AI_BASE_URL', group: 'AI commands', default: 'none: `POST /ai/commands` answers with a list of the matching records', description: 'Base URL of an OpenAI-compatible chat-completions API, e.g. `http://127.0.0.1:11434/v1` (Ollama) or `https://api.openai.com/v1`.' },
  { name: 'AI_MODEL', group: 'AI commands', default: 'none (required with `AI_BASE_URL`)', description: 'The model to ask, 1-200 characters (`llama3.1`, `gpt-4o-mini`, ...).' },
  { name: 'AI_API_KEY', group: 'AI commands', default: 'none (no `Authorization` header)', description: 'Sent as `Authorization: Bearer` to the API.', secret: true },
  { name: 'AI_TIMEOUT_MS', group: 'AI commands', default: '`30000`', description: 'How long one answer may take, 100-600000 ms; then `POST /ai/commands` answers 503.' },
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
  // Calls (WebRTC)
  { name: 'WEBRTC_ICE_SERVERS', group: 'Calls (WebRTC)', default: 'none: peers use their host candidates only (enough on one network or loopback)', description: 'The STUN/TURN servers handed to WebRTC clients with every signaling ticket: a JSON array of `{"urls": ["stun:stun.example.net:3478"], "username"?, "credential"?}` (at most 20; `stun:`, `stuns:`, `turn:`, `turns:` URLs). TURN credentials go to the members who join a call.', secret: true },
  { name: 'WEBRTC_MESH_MAX_PEERS', group: 'Calls (WebRTC)', default: '`8`', description: 'Most peers in one peer-to-peer signaling session, 2-50 (each peer sends its media to every other; beyond a handful, use an SFU: docs/live-updates.md).' },
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
  // Billing (docs/billing.md)
  { name: 'BILLING_PLANS', group: 'Billing', default: 'free 0.00/0.00, team 8.00/80.00, business 16.00/160.00 (per seat, month/year)', description: 'The plan catalog, a JSON array of `{"id", "name", "seat_price": {"monthly", "annual"}, "features"}` with prices as exact decimal strings; it must hold a plan `free`.' },
  { name: 'BILLING_CURRENCY', group: 'Billing', default: '`USD`', description: 'ISO 4217 code of every price and invoice.' },
  { name: 'BILLING_NET_DAYS', group: 'Billing', default: '`14`', description: 'An invoice is due this many days after it is issued, 0-365.' },
  { name: 'BILLING_RETRY_DAYS', group: 'Billing', default: '`3,5,7`', description: 'Dunning: after a failed charge of an invoice, retry after this many days, then after the next number, and so on (1-10 numbers, each 1-60); when the last retry fails the workspace is marked past due.' },
  { name: 'BILLING_POLL_MS', group: 'Billing', default: '`5000`', description: 'How often a server looks for due firings of the billing loop, 10-3600000 ms.' },
  { name: 'BILLING_CLAIM_SECONDS', group: 'Billing', default: '`300`', description: 'How long a claimed billing firing stays with a process before another takes it over (after a crash), 1-86400 s.' },
  { name: 'PAYMENT_PROVIDER', group: 'Billing', default: '`local`', description: '`local` (Luhn check and declining test cards, for development) or `stripe`.' },
  { name: 'STRIPE_SECRET_KEY', group: 'Billing', default: 'none (required with `PAYMENT_PROVIDER=stripe`)', description: 'The Stripe secret key, `sk_test_…` or `sk_live_…`.', secret: true },
  { name: 'STRIPE_API_BASE', group: 'Billing', default: '`https://api.stripe.com`', description: "Where the Stripe adapter sends its calls: an http(s) origin without a path." },
  // Logs and diagnostics
  { name: 'WPK_LOG_LEVEL', group: 'Logs and diagnostics', default: '`info` for servers (`wpk start`, `wpk dev`, `wpk broker`), `warn` for one-shot commands', description: 'pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. Logs are JSON lines on stdout.' },
  { name: 'LOG_LEVEL', group: 'Logs and diagnostics', default: 'none', description: 'Read when `WPK_LOG_LEVEL` is unset (a common convention of process managers).' },
  { name: 'WPK_STATEMENT_CHECK', group: 'Tests', default: 'on in `@wpk/testing`', description: '`off` turns off the test harness\'s check that every statement on a tenant table names its workspace.', readBy: 'app tests (`@wpk/testing`)' },
  { name: 'WPK_STATEMENT_REPORT', group: 'Tests', default: 'none', description: 'A file the statement check also appends every violation to, one JSON object a line (an inventory over a whole suite).', readBy: 'app tests (`@wpk/testing`)' },
  { name: 'TEST_DATABASE_URL', group: 'Tests', default: 'the embedded database', description: 'PostgreSQL URL the test harness creates a scratch database on (`DATABASE_URL` also works).', readBy: 'app tests (`@wpk/testing`)', secret: true },
  {
    name: 'TEST_DATABASE_TEMPLATES',
    group: 'Tests',
    default: 'unset',
    description:
      "A database name prefix (at most 30 of `a-z`, `0-9` and `_`): each scratch database on PostgreSQL is then a copy of a template migrated once per set of apps, named `{prefix}_{hash}`, instead of being migrated again for each test file (a copy takes ~0.2 s, the migrations ~1.2 s). The templates are the run's: drop the databases named with the prefix after it (`.ci/run` sets it and does); a template is not rebuilt when a migration's code changes. An app given as code is known by its migrations' source text.",
    readBy: 'app tests (`@wpk/testing`)',
  },
  { name: 'CHROMIUM_PATH', group: 'Tests', default: '/usr/bin/chromium-headless-shell when installed, else /usr/bin/chromium', description: 'The Chromium the browser tests drive and Slides and Papers print PDFs with (`playwright-core` downloads no browser). Debian\'s headless shell takes about half the CPU of the full browser. Without one (or set to a path that is no file), Papers\' and Slides\' PDF exports answer 503 saying what to set; the server starts anyway.', readBy: 'browser tests (`@wpk/testing/browser`), the SDK\'s `printHtmlToPdf` (Slides\' PDF export; `richTextToPdf`, Papers\' PDF export)' },
  { name: 'UPDATE_SCREENSHOTS', group: 'Tests', default: 'unset', description: 'With `1`, browser tests write the screenshots the apps\' docs pages show (`docs/apps/images/`); otherwise they only take them.', readBy: 'browser tests (`@wpk/testing/browser`)' },
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
