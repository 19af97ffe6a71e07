/**
 * Reads the workspace subdomain from a Host header. `acme.example.com` with base domain
 * `example.com` gives `acme`; the base domain itself, or a host outside it (an IP address,
 * a health probe), gives null: the request is for the platform, not a tenant.
 */
export function subdomainFromHost(host: string | undefined, baseDomain: string): string | null {
  if (!host) return null;
  let hostname = host.trim().toLowerCase();
  if (hostname.startsWith('[')) return null; // IPv6 literal
  hostname = hostname.replace(/:\d+$/, '').replace(/\.$/, '');
  const suffix = `.${baseDomain}`;
  if (!hostname.endsWith(suffix)) return null;
  const label = hostname.slice(0, -suffix.length);
  // a.b.example.com yields "a.b", which no workspace can have: it answers as an unknown workspace.
  return label.length > 0 ? label : null;
}

/**
 * The host name a Host header (or request-line authority) names: lower case, without port,
 * trailing dot or IPv6 brackets; null when it is empty or malformed.
 */
export function hostnameOf(host: string | undefined): string | null {
  if (!host) return null;
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/.exec(host.trim().toLowerCase());
  if (!match) return null;
  const name = match[1].replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return name.length > 0 ? name : null;
}

/**
 * True when the platform answers for `host`: the base domain, one of its subdomains, or one of
 * the extra allowed names (loopback, the listening address, `ALLOWED_HOSTS`).
 */
export function isServedHost(host: string | undefined, baseDomain: string, allowedHosts: readonly string[]): boolean {
  const name = hostnameOf(host);
  if (name === null) return false;
  return name === baseDomain || name.endsWith(`.${baseDomain}`) || allowedHosts.includes(name);
}

/**
 * The public origin of the base domain (`subdomain` null) or of a workspace, from the
 * configured public URL: `{scheme}://{subdomain}.{base}{:port}`. Links in mails and the
 * trusted origins come from here, never from a request's Host.
 */
export function publicOrigin(publicUrl: string, subdomain: string | null): string {
  const key = `${publicUrl}\n${subdomain ?? ''}`;
  let origin = origins.get(key);
  if (origin === undefined) {
    const url = new URL(publicUrl);
    if (subdomain !== null) url.hostname = `${subdomain}.${url.hostname}`;
    origin = url.origin;
    // Parsed once per workspace, not per request; the bound keeps a process serving very many
    // workspaces from growing it without end.
    if (origins.size >= ORIGINS_KEPT) origins.clear();
    origins.set(key, origin);
  }
  return origin;
}

const ORIGINS_KEPT = 10_000;

/**
 * Whether `value` is a path of the host it is read on (`/members?x=1`), not another site a browser
 * would go to (`//evil.test`, `/\evil.test`, `https://...`): where a redirect, a notification's
 * link or a mailed link may lead.
 */
export function isHostPath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\');
}
const origins = new Map<string, string>();
