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
