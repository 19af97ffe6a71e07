/**
 * The Mail app's test fixture: a real platform with the app built by `createMailApp` — its SMTP
 * listener on a free loopback port, the relay pointed at that same listener (so mail between
 * hosted mailboxes leaves over SMTP and comes back in), and a real DNS server on loopback that
 * answers only what a test published, asked through the app's own resolver. The queue runs when a test calls `flush()`.
 */
import { createTestPlatform, type TestMember, type TestPlatform, type TestWorkspace } from '@wpk/testing';
import { createMailApp, dnsResolver, type MailService, type TlsSource } from '../../src/index.js';
import { LocalDns } from './dns-server.js';

export { LocalDns } from './dns-server.js';

export interface CapturedEvent {
  action: string;
  payload: Record<string, unknown>;
}

export interface World {
  platform: TestPlatform;
  workspace: TestWorkspace;
  owner: TestMember;
  dns: LocalDns;
  service: MailService;
  /** The listener's port. */
  port: number;
  /** Hands due queued mail to the relay (the listener); returns how many left. */
  flush(): Promise<number>;
  /** Syncs every connected account with its IMAP server. */
  sync(): ReturnType<MailService['sync']>;
  /** A member allowed into the app holding exactly these keys. */
  member(keys: string[]): Promise<TestMember>;
  /** The `core.mail.*` events written since the last call, oldest first. */
  takeEvents(): CapturedEvent[];
  /** Adds a domain as the owner, publishes its records and verifies it; returns its id. */
  hostedDomain(name: string): Promise<string>;
  /** Creates a mailbox as the owner, assigned to `member` (default the owner). */
  mailbox(domainId: string, localPart: string, member?: TestMember): Promise<{ id: string; address: string }>;
  deliver(action: string, payload: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export async function startWorld(subdomain: string, options: { tls?: TlsSource } = {}): Promise<World> {
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
  const platform = await createTestPlatform({ apps: [built.app], firstParty: true }).catch(async (error: unknown) => {
    await dns.close();
    throw error;
  });
  try {
    await platform.runtime.apps.startServices();
    const workspace = await platform.workspace(subdomain);
    await workspace.install('mail');
    platform.takeEvents();
    const owner = workspace.owner;
    const world: World = {
      platform,
      workspace,
      owner,
      dns,
      service: built.service,
      port: built.service.port!,
      flush: () => built.service.flush(),
      sync: () => built.service.sync(),
      member: (keys) => workspace.member({ permissions: keys }),
      takeEvents: () =>
        platform
          .takeEvents()
          .filter((event) => event.action.startsWith('core.mail.'))
          .map((event) => ({ action: event.action, payload: event.payload })),
      async hostedDomain(name) {
        const added = await owner.post('/mail/domains', { name });
        if (added.status !== 200) throw new Error(`adding ${name}: ${added.status} ${JSON.stringify(added.body)}`);
        const domain = (added.body as { data: { id: string; dns_records: Array<{ type: string; name: string; value: string }> } }).data;
        dns.publish(domain.dns_records);
        const verified = await owner.post(`/mail/domains/${domain.id}/verification`, {});
        if ((verified.body as { data: { verified: boolean } }).data.verified !== true) throw new Error(`${name} did not verify`);
        return domain.id;
      },
      async mailbox(domainId, localPart, member = owner) {
        const created = await owner.post('/mail/mailboxes', { domain_id: domainId, local_part: localPart, member_id: member.id, display_name: localPart });
        if (created.status !== 200) throw new Error(`mailbox ${localPart}: ${created.status} ${JSON.stringify(created.body)}`);
        return (created.body as { data: { id: string; address: string } }).data;
      },
      async deliver(action, payload) {
        const result = await platform.deliver(workspace.id, action, payload);
        if (result.mail !== 'handled') throw new Error(`${action} was not handled: ${JSON.stringify(result)}`);
      },
      close: async () => {
        await platform.close();
        await dns.close();
      },
    };
    return world;
  } catch (error) {
    await platform.close();
    await dns.close();
    throw error;
  }
}
