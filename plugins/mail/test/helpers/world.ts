/**
 * The Mail app's test fixture: a real platform with the app built by `createMailApp` — its SMTP
 * listener on a free loopback port, the relay pointed at that same listener (so mail between
 * hosted mailboxes leaves over SMTP and comes back in), and a DNS resolver that answers only
 * what a test published. The queue runs when a test calls `flush()`.
 */
import { createTestPlatform, type TestMember, type TestPlatform, type TestWorkspace } from '@wpk/testing';
import { createMailApp, type DnsResolver, type MailService, type TlsSource } from '../../src/index.js';

/** A fake DNS zone: records the tests publish. */
export class FakeDns implements DnsResolver {
  readonly mx = new Map<string, Array<{ exchange: string; priority: number }>>();
  readonly txt = new Map<string, string[][]>();
  readonly a = new Map<string, string[]>();

  /** Publishes one TXT record (an SPF or DMARC policy a test sets up by hand). */
  publishTxt(name: string, value: string): void {
    this.txt.set(name, [...(this.txt.get(name) ?? []), value.match(/.{1,255}/g)!]);
  }

  /** Publishes the records a domain's answer lists (`dns_records`). */
  publish(records: Array<{ type: string; name: string; value: string }>): void {
    for (const record of records) {
      if (record.type === 'MX') {
        const [priority, exchange] = record.value.split(' ');
        this.mx.set(record.name, [...(this.mx.get(record.name) ?? []), { priority: Number(priority), exchange: exchange!.replace(/\.$/, '') }]);
      } else {
        // Long TXT values are split in 255-character strings, as DNS serves them.
        const chunks = record.value.match(/.{1,255}/g)!;
        this.txt.set(record.name, [...(this.txt.get(record.name) ?? []), chunks]);
      }
    }
  }

  async resolveMx(name: string) {
    const found = this.mx.get(name);
    if (!found) throw Object.assign(new Error(`queryMx ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return found;
  }

  async resolve4(name: string) {
    const found = this.a.get(name);
    if (!found) throw Object.assign(new Error(`queryA ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return found;
  }

  async resolveTxt(name: string) {
    const found = this.txt.get(name);
    if (!found) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return found;
  }
}

export interface CapturedEvent {
  action: string;
  payload: Record<string, unknown>;
}

export interface World {
  platform: TestPlatform;
  workspace: TestWorkspace;
  owner: TestMember;
  dns: FakeDns;
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
  const dns = new FakeDns();
  // The MX host is this listener (and the relay), on loopback: the hosted domains' SPF `mx` passes for it.
  dns.a.set('mx.mail.test', ['127.0.0.1']);
  const built = createMailApp({
    resolver: dns,
    smtp: { host: '127.0.0.1', port: 0, hostname: 'mx.mail.test', maxMessageBytes: 1024 * 1024, tls: options.tls ?? null },
    relay: () => (built.service.port ? { host: '127.0.0.1', port: built.service.port } : null),
    mxHost: 'mx.mail.test',
    spfInclude: '',
    queueIntervalMs: 0,
    syncIntervalMs: 0,
  });
  const platform = await createTestPlatform({ apps: [built.app], firstParty: true });
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
      close: () => platform.close(),
    };
    return world;
  } catch (error) {
    await platform.close();
    throw error;
  }
}
