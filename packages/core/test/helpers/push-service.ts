import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as ece from 'http_ece';

/** A browser as the push service knows it: its key pair and auth secret (RFC 8291), and the subscription it hands to the platform. */
export interface TestBrowser {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  ecdh: ECDH;
  authSecret: Buffer;
}

/** One push as the service received it, after checking the VAPID JWT and decrypting the payload. */
export interface ReceivedPush {
  browser: string;
  /** The decrypted payload, parsed. */
  message: Record<string, unknown>;
  /** The VAPID public key the request named (`k=`). */
  vapidKey: string;
  claims: { aud: string; exp: number; sub: string };
  ttl: string | undefined;
  /** What the service answered. */
  status: number;
}

/** A request the service refused (bad VAPID, undecryptable body): the test fails on any. */
export interface RefusedPush {
  browser: string;
  reason: string;
}

const b64 = (value: Buffer) => value.toString('base64url');

/**
 * A web-push service on loopback, as a browser vendor runs one: it accepts a POST to a
 * subscription's endpoint only with a valid VAPID JWT (RFC 8292: ES256 over the `k` key, `aud`
 * the service's origin, `exp` within 24 hours, a `mailto:`/`https:` `sub`), and it decrypts the
 * aes128gcm body with the browser's private key and auth secret (RFC 8291), as the browser would.
 * `answer(browser, status)` makes it answer a status (404/410: subscription gone).
 */
export class TestPushService {
  readonly received: ReceivedPush[] = [];
  readonly refused: RefusedPush[] = [];
  private readonly browsers = new Map<string, TestBrowser>();
  private readonly answers = new Map<string, number>();
  private server!: http.Server;
  origin = '';

  static async start(): Promise<TestPushService> {
    const service = new TestPushService();
    service.server = http.createServer((request, response) => service.handle(request, response));
    await new Promise<void>((resolve) => service.server.listen(0, '127.0.0.1', resolve));
    service.origin = `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
    return service;
  }

  /** A new browser with fresh keys. */
  browser(): TestBrowser {
    const id = randomBytes(8).toString('hex');
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const authSecret = randomBytes(16);
    const browser = { id, endpoint: `${this.origin}/push/${id}`, keys: { p256dh: b64(ecdh.getPublicKey()), auth: b64(authSecret) }, ecdh, authSecret };
    this.browsers.set(id, browser);
    return browser;
  }

  answer(browser: TestBrowser, status: number): void {
    this.answers.set(browser.id, status);
  }

  pushesTo(browser: TestBrowser): ReceivedPush[] {
    return this.received.filter((push) => push.browser === browser.id);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const id = /^\/push\/([0-9a-f]+)$/.exec(request.url ?? '')?.[1] ?? '';
      const refuse = (status: number, reason: string) => {
        this.refused.push({ browser: id, reason });
        response.writeHead(status).end(reason);
      };
      const browser = this.browsers.get(id);
      if (request.method !== 'POST' || !browser) return refuse(404, 'no such subscription');
      const vapid = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(request.headers.authorization ?? ''));
      if (!vapid) return refuse(401, 'Authorization must be "vapid t=<jwt>, k=<key>"');
      const [token, key] = [vapid[1], vapid[2]];
      const claims = this.verifyJwt(token, key);
      if (typeof claims === 'string') return refuse(403, claims);
      if (request.headers['content-encoding'] !== 'aes128gcm') return refuse(415, 'Content-Encoding must be aes128gcm');
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(ece.decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: browser.ecdh, authSecret: browser.authSecret }).toString('utf8'));
      } catch (error) {
        return refuse(400, `cannot decrypt: ${(error as Error).message}`);
      }
      const status = this.answers.get(id) ?? 201;
      this.received.push({ browser: id, message, vapidKey: key, claims, ttl: request.headers.ttl as string | undefined, status });
      response.writeHead(status).end();
    });
  }

  /** The claims, or why the JWT is refused. */
  private verifyJwt(token: string, key: string): { aud: string; exp: number; sub: string } | string {
    const parts = token.split('.');
    if (parts.length !== 3) return 'the JWT must have three parts';
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as { alg?: string; typ?: string };
    if (header.alg !== 'ES256') return `the JWT must be ES256, got ${header.alg}`;
    const point = Buffer.from(key, 'base64url');
    if (point.length !== 65 || point[0] !== 4) return 'k must be an uncompressed P-256 point';
    const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64(point.subarray(1, 33)), y: b64(point.subarray(33)) }, format: 'jwk' });
    const valid = verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(parts[2], 'base64url'));
    if (!valid) return 'the JWT signature does not verify with k';
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string };
    if (claims.aud !== this.origin) return `aud must be ${this.origin}, got ${claims.aud}`;
    const now = Math.floor(Date.now() / 1000);
    if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) return 'exp must be in the next 24 hours';
    if (!/^(mailto:|https:)/.test(claims.sub ?? '')) return 'sub must be a mailto: or https: contact';
    return claims;
  }
}
