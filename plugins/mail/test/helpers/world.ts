/**
 * The Mail app's test fixture: a real platform with the app built by `createMailApp` — its SMTP
 * listener on a free loopback port, the relay pointed at that same listener (so mail between
 * hosted mailboxes leaves over SMTP and comes back in), and a real DNS server on loopback that
 * answers only what a test published, asked through the app's own resolver. The queue runs when a test calls `flush()`.
 */
import { fileURLToPath } from 'node:url';
import { startWorld, type TestMember, type World as BaseWorld } from '@wpk/testing';
import { createMailApp, dnsResolver, type MailService, type TlsSource } from '../../src/index.js';
import { LocalDns } from './dns-server.js';

export { LocalDns } from './dns-server.js';

/** A member's keys: their own mail, no administration. */
export const KEYS = ['mail.accounts.read', 'mail.accounts.edit', 'mail.messages.read', 'mail.messages.edit', 'mail.messages.send'];

/** What the Mail tests add to `startWorld` of @wpk/testing. */
export interface World extends BaseWorld {
  dns: LocalDns;
  service: MailService;
  /** The listener's port. */
  port: number;
  /** Hands due queued mail to the relay (the listener); returns how many left. */
  flush(): Promise<number>;
  /** Syncs every connected account with its IMAP server. */
  sync(): ReturnType<MailService['sync']>;
  /** Adds a domain as the owner, publishes its records and verifies it; returns its id. */
  hostedDomain(name: string): Promise<string>;
  /** Creates a mailbox as the owner, assigned to `member` (default the owner). */
  mailbox(domainId: string, localPart: string, member?: TestMember): Promise<{ id: string; address: string }>;
}

/**
 * `ui`: the app is served with its front-end (its folder's `ui/`) on a listening server, for the
 * browser test.
 */
export async function mailWorld(subdomain: string, options: { tls?: TlsSource; ui?: boolean } = {}): Promise<World> {
  const dns = await LocalDns.start();
  // The MX host is this listener (and the relay), on loopback: the hosted domains' SPF `mx` passes for it.
  dns.a.set('mx.mail.test', ['127.0.0.1']);
  const built = createMailApp({
    resolver: dnsResolver([dns.address]),
    smtp: { host: '127.0.0.1', port: 0, hostname: 'mx.mail.test', maxMessageBytes: 1024 * 1024, tls: options.tls ?? null },
    relay: () => (built.service.port ? { host: '127.0.0.1', port: built.service.port } : null),
    mxHost: 'mx.mail.test',
    spfInclude: '',
    queueIntervalMs: 0,
    syncIntervalMs: 0,
    // The test's IMAP and SMTP servers listen on loopback, a private address (see private-hosts.test.ts).
    allowPrivateHosts: true,
  });
  const base = await startWorld(options.ui ? { app: { app: built.app, dir: fileURLToPath(new URL('../..', import.meta.url)) }, subdomain, listen: true } : { app: built.app, subdomain }).catch(async (error: unknown) => {
    await dns.close();
    throw error;
  });
  const closeBase = base.close;
  const close = async () => {
    await closeBase();
    await dns.close();
  };
  try {
    await base.platform.runtime.apps.startServices();
  } catch (error) {
    await close();
    throw error;
  }
  const owner = base.owner;
  return Object.assign(base, {
    dns,
    service: built.service,
    port: built.service.port!,
    flush: () => built.service.flush(),
    sync: () => built.service.sync(),
    async hostedDomain(name: string) {
      const added = await owner.post('/mail/domains', { name });
      if (added.status !== 200) throw new Error(`adding ${name}: ${added.status} ${JSON.stringify(added.body)}`);
      const domain = (added.body as { data: { id: string; dns_records: Array<{ type: string; name: string; value: string }> } }).data;
      dns.publish(domain.dns_records);
      const verified = await owner.post(`/mail/domains/${domain.id}/verification`, {});
      if ((verified.body as { data: { verified: boolean } }).data.verified !== true) throw new Error(`${name} did not verify`);
      return domain.id;
    },
    async mailbox(domainId: string, localPart: string, member: TestMember = owner) {
      const created = await owner.post('/mail/mailboxes', { domain_id: domainId, local_part: localPart, member_id: member.id, display_name: localPart });
      if (created.status !== 200) throw new Error(`mailbox ${localPart}: ${created.status} ${JSON.stringify(created.body)}`);
      return (created.body as { data: { id: string; address: string } }).data;
    },
    close,
  });
}
