import type { Request, Server } from '@hapi/hapi';
import { BlockList, isIP } from 'node:net';

declare module '@hapi/hapi' {
  interface RequestApplicationState {
    /** The client's address as `clientAddressOf` judges it (set on every request, before anything reads it). */
    clientAddress?: string;
  }
}

/**
 * The reverse proxies whose `X-Forwarded-For` is believed (`TRUSTED_PROXIES`): IP addresses and
 * CIDR ranges, IPv4 or IPv6. An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, what a dual-stack
 * socket reports) is judged as its IPv4 address.
 */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly size: number;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address, bits] = entry.split('/');
      const family = isIP(address ?? '');
      if (family === 0) throw new Error(`TRUSTED_PROXIES: ${JSON.stringify(entry)} is not an IP address or CIDR range`);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) {
        this.list.addAddress(address!, type);
        continue;
      }
      const prefix = Number(bits);
      if (!/^\d{1,3}$/.test(bits) || prefix > (family === 4 ? 32 : 128)) throw new Error(`TRUSTED_PROXIES: ${JSON.stringify(entry)} has a bad prefix length`);
      this.list.addSubnet(address!, prefix, type);
    }
    this.size = entries.length;
  }

  /** True when `address` is one of the listed proxies. */
  has(address: string): boolean {
    if (this.size === 0) return false;
    const plain = unmapped(address);
    const family = isIP(plain);
    if (family === 0) return false;
    return this.list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** `::ffff:1.2.3.4` → `1.2.3.4`; anything else as it is. */
function unmapped(address: string): string {
  const match = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return match ? match[1]! : address;
}

/**
 * The client's address: the socket's, unless the socket is a trusted proxy; then the right-most
 * `X-Forwarded-For` entry that is not itself a trusted proxy (entries left of it were written by
 * the client and prove nothing). A trusted proxy that sent no usable entry stays the client.
 */
export function resolveClientAddress(socketAddress: string, forwardedFor: string | string[] | undefined, proxies: TrustedProxies): string {
  if (!proxies.has(socketAddress)) return socketAddress;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const hops = header
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = unmapped(hops[index]!);
    if (isIP(hop) === 0) return socketAddress; // garbage: the chain cannot be followed further
    if (!proxies.has(hop)) return hop;
  }
  return socketAddress;
}

/**
 * The client's address for every per-client limit and the activity trail. Always use this, never
 * `request.info.remoteAddress`: behind a reverse proxy the socket is the proxy's, and every
 * per-address limit would become one global limit that anyone can use up.
 */
export function clientAddressOf(request: Request): string {
  return request.app.clientAddress ?? request.info.remoteAddress ?? '';
}

/** Judges each request's client address once, on arrival (`TRUSTED_PROXIES`). */
export function installClientAddress(server: Server, trustedProxies: readonly string[]): void {
  const proxies = new TrustedProxies(trustedProxies);
  server.ext('onRequest', (request, h) => {
    request.app.clientAddress = resolveClientAddress(request.info.remoteAddress ?? '', request.headers['x-forwarded-for'] as string | string[] | undefined, proxies);
    return h.continue;
  });
}
