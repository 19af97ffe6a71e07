/**
 * A real DNS server for the Mail app's tests: UDP on a free loopback port, authoritative for
 * whatever the test publishes (MX, TXT, A), answering NXDOMAIN for a name it has nothing for and
 * an empty answer (NODATA) for a known name without the asked type, and SERVFAIL for the names a
 * test marks failing. The app reaches it through
 * `dnsResolver([server.address])`, the same resolver `MAIL_DNS_SERVERS` configures.
 */
import dgram from 'node:dgram';
import dnsPacket, { type Answer } from 'dns-packet';
import { dnsResolver, type DnsResolver } from '../../src/options.js';

const SERVFAIL = 2;
const NXDOMAIN = 3;

export class LocalDns implements DnsResolver {
  readonly mx = new Map<string, Array<{ exchange: string; priority: number }>>();
  readonly txt = new Map<string, string[][]>();
  readonly a = new Map<string, string[]>();
  /** Names whose every question gets SERVFAIL (a broken zone: no answer either way). */
  readonly failing = new Set<string>();
  /** Questions answered so far (`TXT _wpk-verify.example.com`). */
  readonly asked: string[] = [];
  private readonly resolver: DnsResolver;

  private constructor(
    private readonly socket: dgram.Socket,
    /** `127.0.0.1:port`, for `dnsResolver` or `MAIL_DNS_SERVERS`. */
    readonly address: string,
  ) {
    this.resolver = dnsResolver([address]);
  }

  /** Starts a server on a free port of 127.0.0.1. */
  static async start(): Promise<LocalDns> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => resolve());
    });
    const server = new LocalDns(socket, `127.0.0.1:${socket.address().port}`);
    socket.on('message', (message, peer) => server.answer(message, peer));
    return server;
  }

  /** Publishes one TXT record (an SPF or DMARC policy a test sets up by hand). */
  publishTxt(name: string, value: string): void {
    const key = name.toLowerCase();
    this.txt.set(key, [...(this.txt.get(key) ?? []), value.match(/.{1,255}/g)!]);
  }

  /** Removes every TXT record of a name. */
  unpublishTxt(name: string): void {
    this.txt.delete(name.toLowerCase());
  }

  /** Publishes the records a domain's answer lists (`dns_records`). */
  publish(records: Array<{ type: string; name: string; value: string }>): void {
    for (const record of records) {
      const key = record.name.toLowerCase();
      if (record.type === 'MX') {
        const [priority, exchange] = record.value.split(' ');
        this.mx.set(key, [...(this.mx.get(key) ?? []), { priority: Number(priority), exchange: exchange!.replace(/\.$/, '') }]);
      } else {
        this.publishTxt(key, record.value);
      }
    }
  }

  resolveMx(name: string) {
    return this.resolver.resolveMx(name);
  }

  resolveTxt(name: string) {
    return this.resolver.resolveTxt(name);
  }

  resolve4(name: string) {
    return this.resolver.resolve4!(name);
  }

  /** Stops answering (the port is closed: look-ups are refused). */
  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  private answer(message: Buffer, peer: dgram.RemoteInfo): void {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    this.asked.push(`${question.type} ${name}`);
    const known = this.mx.has(name) || this.txt.has(name) || this.a.has(name);
    const answers: Answer[] = [];
    if (question.type === 'MX') for (const record of this.mx.get(name) ?? []) answers.push({ type: 'MX', name: question.name, ttl: 1, data: { preference: record.priority, exchange: record.exchange } });
    if (question.type === 'TXT') for (const chunks of this.txt.get(name) ?? []) answers.push({ type: 'TXT', name: question.name, ttl: 1, data: chunks.map((chunk) => Buffer.from(chunk)) });
    if (question.type === 'A') for (const address of this.a.get(name) ?? []) answers.push({ type: 'A', name: question.name, ttl: 1, data: address });
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) | (this.failing.has(name) ? SERVFAIL : known ? 0 : NXDOMAIN),
      questions: query.questions,
      answers: this.failing.has(name) ? [] : answers,
    });
    this.socket.send(response, peer.port, peer.address);
  }
}
