import fs from 'node:fs';
import dns from 'node:dns/promises';
import path from 'node:path';
import type { TlsSource } from './tls.js';

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
  /** A and AAAA records (SPF's `a` and `mx` mechanisms); a resolver without them answers none. */
  resolve4?(name: string): Promise<string[]>;
  resolve6?(name: string): Promise<string[]>;
}

function notFound(name: string): Error {
  return Object.assign(new Error(`ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
}

/** The resolver `mailauth` calls (`(name, rrtype)`, as `dns.resolve`), answered by the app's resolver. */
export function mailauthResolver(resolver: DnsResolver) {
  // mailauth's type names string answers only; an MX answer is `{ exchange, priority }` objects, as from `dns.resolve`.
  return async (name: string, type: string): Promise<string[][] | string[]> => {
    switch (type) {
      case 'TXT':
        return resolver.resolveTxt(name);
      case 'MX':
        return (await resolver.resolveMx(name)) as unknown as string[];
      case 'A':
        if (resolver.resolve4) return resolver.resolve4(name);
        throw notFound(name);
      case 'AAAA':
        if (resolver.resolve6) return resolver.resolve6(name);
        throw notFound(name);
      default:
        throw notFound(name);
    }
  };
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
  /** Resolver for domain verification and inbound DKIM checks (`dnsResolver(servers)`). */
  resolver: DnsResolver;
  /** The inbound listener: null runs none (outgoing mail and the API still work). `port` 0 picks a free one. */
  smtp: { host: string; port: number; hostname: string; maxMessageBytes: number; tls?: TlsSource | null } | null;
  /** The relay for outgoing mail; a function so tests can point it at a listener's chosen port. Null: sending answers 409. */
  relay: () => RelayConfig | null;
  /** The host name the domains' MX records must name. */
  mxHost: string;
  /** Extra SPF mechanism for the relay (`include:_spf.example.net`), or empty. */
  spfInclude: string;
  /** How often connected accounts are synced with their IMAP servers (0: only when `service.sync()` is called). */
  syncIntervalMs?: number;
  /** Whether a connected account may name a server on a private network (loopback, RFC 1918, link-local …); default false. */
  allowPrivateHosts?: boolean;
}

/**
 * A resolver that asks `servers` (`127.0.0.1`, `127.0.0.1:5353`, `[::1]:53`), or the system's
 * configured servers when the list is empty. Two tries of 2 s each before a look-up fails.
 */
export function dnsResolver(servers: string[] = []): DnsResolver {
  const resolver = new dns.Resolver({ timeout: 2000, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  return {
    resolveMx: (name) => resolver.resolveMx(name),
    resolveTxt: (name) => resolver.resolveTxt(name),
    resolve4: (name) => resolver.resolve4(name),
    resolve6: (name) => resolver.resolve6(name),
  };
}

/** `MAIL_DNS_SERVERS`: comma-separated addresses (an optional port each), or none for the system's. */
export function dnsServersFromEnv(value: string | undefined): string[] {
  const servers = (value ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  try {
    new dns.Resolver().setServers(servers);
  } catch (error) {
    throw new Error(`MAIL_DNS_SERVERS must list IP addresses, each with an optional :port (${(error as Error).message})`, { cause: error });
  }
  return servers;
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
 * `MAIL_SPF_INCLUDE`, `MAIL_TLS_CERT` and `MAIL_TLS_KEY` (PEM files for STARTTLS; without them a
 * self-signed certificate is generated into `WPK_DATA_DIR`), `MAIL_SYNC_INTERVAL_SECONDS`
 * (default 120; 0 turns the periodic sync of connected accounts off), `MAIL_ALLOW_PRIVATE_HOSTS`
 * (`true`: connected accounts may name servers on private networks; default false),
 * `MAIL_DNS_SERVERS` (the DNS servers domains are verified and inbound mail is checked with,
 * `10.0.0.53,10.0.0.54:5353`; default the system's).
 */
export function mailOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): MailOptions {
  const hostname = env.MAIL_HOSTNAME || 'localhost';
  const port = env.MAIL_SMTP_PORT ? Number(env.MAIL_SMTP_PORT) : null;
  if (port !== null && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new Error(`MAIL_SMTP_PORT must be a port number, not ${env.MAIL_SMTP_PORT}`);
  const relay = relayFromUrl(env.MAIL_RELAY_URL);
  if (Boolean(env.MAIL_TLS_CERT) !== Boolean(env.MAIL_TLS_KEY)) throw new Error('MAIL_TLS_CERT and MAIL_TLS_KEY go together: set both or neither');
  const syncSeconds = env.MAIL_SYNC_INTERVAL_SECONDS === undefined || env.MAIL_SYNC_INTERVAL_SECONDS === '' ? 120 : Number(env.MAIL_SYNC_INTERVAL_SECONDS);
  if (!Number.isInteger(syncSeconds) || syncSeconds < 0) throw new Error(`MAIL_SYNC_INTERVAL_SECONDS must be a whole number of seconds, not ${env.MAIL_SYNC_INTERVAL_SECONDS}`);
  const tls: TlsSource | null =
    port === null
      ? null
      : env.MAIL_TLS_CERT && env.MAIL_TLS_KEY
        ? { cert: fs.readFileSync(env.MAIL_TLS_CERT, 'utf8'), key: fs.readFileSync(env.MAIL_TLS_KEY, 'utf8') }
        : { generateInto: path.resolve(env.WPK_DATA_DIR || '.wpk/data') };
  return {
    resolver: dnsResolver(dnsServersFromEnv(env.MAIL_DNS_SERVERS)),
    smtp: port === null ? null : { host: env.MAIL_SMTP_HOST || '0.0.0.0', port, hostname, maxMessageBytes: Number(env.MAIL_MAX_MESSAGE_BYTES || 25 * 1024 * 1024), tls },
    syncIntervalMs: syncSeconds * 1000,
    relay: () => relay,
    mxHost: env.MAIL_MX_HOST || hostname,
    spfInclude: env.MAIL_SPF_INCLUDE || '',
    allowPrivateHosts: env.MAIL_ALLOW_PRIVATE_HOSTS === 'true',
  };
}
