import dns from 'node:dns/promises';

/**
 * What the Mail app takes from its deployment rather than from a workspace's settings: the DNS
 * resolver it verifies domains with, its inbound SMTP listener, the relay outgoing mail leaves
 * through, and the host name its MX records name. `mailApp(options)` builds the app with them;
 * the default export reads them from the environment (`mailOptionsFromEnv`).
 */

/** The DNS look-ups the app makes; `node:dns/promises` by default, a fake in tests. */
export interface DnsResolver {
  resolveMx(name: string): Promise<Array<{ exchange: string; priority: number }>>;
  resolveTxt(name: string): Promise<string[][]>;
}

/** Where outgoing mail is handed over (SMTP, no TLS upgrade unless `secure`). */
export interface RelayConfig {
  host: string;
  port: number;
  secure?: boolean;
  auth?: { user: string; pass: string };
}

/** The deployment's mail configuration. */
export interface MailOptions {
  /** Resolver for domain verification and inbound DKIM checks. */
  resolver: DnsResolver;
  /** The inbound listener: null runs none (outgoing mail and the API still work). `port` 0 picks a free one. */
  smtp: { host: string; port: number; hostname: string; maxMessageBytes: number } | null;
  /** The relay for outgoing mail; a function so tests can point it at a listener's chosen port. Null: sending answers 409. */
  relay: () => RelayConfig | null;
  /** The host name the domains' MX records must name. */
  mxHost: string;
  /** Extra SPF mechanism for the relay (`include:_spf.example.net`), or empty. */
  spfInclude: string;
}

function relayFromUrl(url: string | undefined): RelayConfig | null {
  if (!url) return null;
  const parsed = new URL(url);
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') throw new Error(`MAIL_RELAY_URL must be smtp:// or smtps://, not ${parsed.protocol}`);
  const secure = parsed.protocol === 'smtps:';
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 25,
    secure,
    ...(parsed.username ? { auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } } : {}),
  };
}

/**
 * `MAIL_SMTP_PORT` (no listener when unset), `MAIL_SMTP_HOST` (default 0.0.0.0),
 * `MAIL_HOSTNAME` (the listener's greeting and the default MX host), `MAIL_MAX_MESSAGE_BYTES`
 * (default 25 MB), `MAIL_RELAY_URL` (`smtp://user:pass@host:587`), `MAIL_MX_HOST`,
 * `MAIL_SPF_INCLUDE`.
 */
export function mailOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): MailOptions {
  const hostname = env.MAIL_HOSTNAME || 'localhost';
  const port = env.MAIL_SMTP_PORT ? Number(env.MAIL_SMTP_PORT) : null;
  if (port !== null && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new Error(`MAIL_SMTP_PORT must be a port number, not ${env.MAIL_SMTP_PORT}`);
  const relay = relayFromUrl(env.MAIL_RELAY_URL);
  return {
    resolver: { resolveMx: (name) => dns.resolveMx(name), resolveTxt: (name) => dns.resolveTxt(name) },
    smtp: port === null ? null : { host: env.MAIL_SMTP_HOST || '0.0.0.0', port, hostname, maxMessageBytes: Number(env.MAIL_MAX_MESSAGE_BYTES || 25 * 1024 * 1024) },
    relay: () => relay,
    mxHost: env.MAIL_MX_HOST || hostname,
    spfInclude: env.MAIL_SPF_INCLUDE || '',
  };
}
