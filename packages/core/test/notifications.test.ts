import test from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { QueryTypes } from 'sequelize';
import type { MailMessage } from '../src/mail/index.js';
import { LocalPhonePushProvider, loadVapidKeys, VAPID_KEYS_FILE } from '../src/notifications/index.js';
import { body, startAppsRuntime, TestWorkspace, type AppsTestRuntime, type TestCaller } from './helpers/apps.js';
import { TestPushService } from './helpers/push-service.js';

// Notifications: preferences per channel, honoured when a notification fans out (in-app, mail,
// web push, phone push); web push checked by a push service that verifies the VAPID JWT and
// decrypts the payload; expired subscriptions and devices removed.

let env: AppsTestRuntime;
let dataDir: string;
let pushService: TestPushService;
const phones = new LocalPhonePushProvider();
const mails: MailMessage[] = [];
let counter = 0;

const json = { 'content-type': 'application/json' };
const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  env.runtime.server.inject({ method, url, headers: payload === undefined ? headers : { ...headers, ...json }, payload: payload as object | undefined });

async function waitFor(what: string, done: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function workspace(): Promise<TestWorkspace> {
  counter += 1;
  return TestWorkspace.create(env, `notify${counter}`);
}

const subscribe = async (caller: TestCaller) => {
  const browser = pushService.browser();
  const answer = await call('POST', '/push-subscriptions', caller.headers(), { endpoint: browser.endpoint, keys: browser.keys });
  if (answer.statusCode !== 200) throw new Error(`subscribe: ${answer.payload}`);
  return browser;
};

const rows = (sql: string, replacements: Record<string, unknown>) => env.runtime.db.sequelize.query<Record<string, unknown>>(sql, { type: QueryTypes.SELECT, replacements });

test.before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'wpk-notify-'));
  pushService = await TestPushService.start();
  env = await startAppsRuntime({
    dataDir,
    push: { allowHttpEndpoints: true, ttlSeconds: 3600 },
    seams: {
      phonePush: phones,
      mailer: {
        async send(message) {
          mails.push(message);
          return { messageId: `test-${mails.length}` };
        },
        close() {},
      },
    },
  });
});

test.after.always(async () => {
  await env?.close();
  await pushService?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('the VAPID key pair is generated once, kept in the data directory (0600) and offered to browsers', async (t) => {
  const ws = await workspace();
  const file = path.join(dataDir, VAPID_KEYS_FILE);
  const kept = JSON.parse(await readFile(file, 'utf8'));
  t.is((await stat(file)).mode & 0o777, 0o600);
  const answer = await call('GET', '/push-subscriptions/key', ws.owner.headers());
  t.is(answer.statusCode, 200);
  t.deepEqual(body(answer), { data: { public_key: kept.publicKey, content_encoding: 'aes128gcm' }, links: { self: '/push-subscriptions/key' } });
  t.is(Buffer.from(kept.publicKey, 'base64url').length, 65);
  t.deepEqual(await loadVapidKeys(undefined, dataDir), kept);
});

test('POST /push-subscriptions: bounds, one row per endpoint, the caller\'s own', async (t) => {
  const ws = await workspace();
  const member = await ws.member();
  const browser = pushService.browser();
  const refusals: Array<[unknown, string, string?]> = [
    [{ keys: browser.keys }, 'endpoint is required', 'endpoint'],
    [{ endpoint: 'http://a', keys: browser.keys }, 'endpoint length must be at least 10 characters long', 'endpoint'],
    [{ endpoint: `${browser.endpoint}/${'x'.repeat(2000)}`, keys: browser.keys }, 'endpoint length must be less than or equal to 2000 characters long', 'endpoint'],
    [{ endpoint: browser.endpoint }, 'keys is required', 'keys'],
    [{ endpoint: browser.endpoint, keys: { auth: browser.keys.auth } }, 'keys.p256dh is required', 'keys.p256dh'],
    [{ endpoint: browser.endpoint, keys: { p256dh: browser.keys.p256dh } }, 'keys.auth is required', 'keys.auth'],
    [{ endpoint: 'ftp://push.example/abc', keys: browser.keys }, 'endpoint must be the https URL of a push service'],
    [{ endpoint: 'https://user:pw@push.example/abc', keys: browser.keys }, 'endpoint must be the https URL of a push service'],
    [{ endpoint: browser.endpoint, keys: { ...browser.keys, p256dh: 'AAAA' } }, 'keys.p256dh must be the base64url of an uncompressed P-256 public key (65 bytes)'],
    [{ endpoint: browser.endpoint, keys: { ...browser.keys, auth: 'short' } }, 'keys.auth must be the base64url of a 16-byte secret'],
  ];
  for (const [payload, error, field] of refusals) {
    const answer = await call('POST', '/push-subscriptions', member.headers(), payload);
    t.is(answer.statusCode, 400, error);
    t.deepEqual(body(answer), field === undefined ? { error } : { error, field });
  }
  t.is((await rows('SELECT id FROM platform.push_subscriptions WHERE workspace_id = :id', { id: ws.id })).length, 0);
  const first = await call('POST', '/push-subscriptions', member.headers(), { endpoint: browser.endpoint, keys: browser.keys, expirationTime: null });
  t.is(first.statusCode, 200);
  const created = body(first).data;
  t.like(created, { member_id: member.memberId, endpoint: browser.endpoint });
  // The same browser again (a refreshed subscription, here signed in as the owner): one row, now the owner's.
  const again = body(await call('POST', '/push-subscriptions', ws.owner.headers(), { endpoint: browser.endpoint, keys: browser.keys })).data;
  t.is(again.id, created.id);
  t.is(again.member_id, ws.owner.memberId);
  t.deepEqual(await rows('SELECT member_id FROM platform.push_subscriptions WHERE workspace_id = :id', { id: ws.id }), [{ member_id: ws.owner.memberId }]);
});

test('POST /push-devices: bounds (token 20-4096, platform ios or android), one row per token', async (t) => {
  const ws = await workspace();
  const token = 'a'.repeat(20);
  const refusals: Array<[unknown, string, string?]> = [
    [{ platform: 'ios' }, 'token is required', 'token'],
    [{ token: 'a'.repeat(19), platform: 'ios' }, 'token length must be at least 20 characters long', 'token'],
    [{ token: 'a'.repeat(4097), platform: 'ios' }, 'token length must be less than or equal to 4096 characters long', 'token'],
    [{ token }, 'platform is required', 'platform'],
    [{ token, platform: 'windows' }, 'platform must be one of [ios, android]', 'platform'],
    [{ token: `${'a'.repeat(20)} b`, platform: 'ios' }, 'token must not contain spaces'],
  ];
  for (const [payload, error, field] of refusals) {
    const answer = await call('POST', '/push-devices', ws.owner.headers(), payload);
    t.is(answer.statusCode, 400, error);
    t.deepEqual(body(answer), field === undefined ? { error } : { error, field });
  }
  // Tokens of the upper bound that do not compress (a repeated letter fits an index entry once compressed; these do not).
  const long = randomBytes(3072).toString('base64');
  t.is(long.length, 4096);
  const created = await call('POST', '/push-devices', ws.owner.headers(), { token: long, platform: 'android' });
  t.is(created.statusCode, 200, JSON.stringify(body(created)));
  const first = body(created).data;
  t.like(first, { member_id: ws.owner.memberId, platform: 'android', token_suffix: long.slice(-8) });
  const again = body(await call('POST', '/push-devices', ws.owner.headers(), { token: long, platform: 'ios' })).data;
  t.is(again.id, first.id);
  t.is(again.platform, 'ios');
  const other = await call('POST', '/push-devices', ws.owner.headers(), { token: randomBytes(3072).toString('base64'), platform: 'ios' });
  t.is(other.statusCode, 200);
  t.not(body(other).data.id, first.id);
  t.is((await rows('SELECT id FROM platform.push_devices WHERE workspace_id = :id', { id: ws.id })).length, 2);
});

test('PATCH /me/notification-preferences: per channel, only the given fields, bounds', async (t) => {
  const ws = await workspace();
  const member = await ws.member();
  const initial = body(await call('GET', '/me/notification-preferences', member.headers()));
  t.deepEqual(
    initial.data.map((row: { channel: string }) => row.channel),
    ['apps', 'mentions', 'chat', 'calls', 'tasks', 'billing', 'security', 'system'],
  );
  t.deepEqual(initial.data[0], { channel: 'apps', enabled: true, toast: true, push: true, sound: 'default', customized: false });
  const refusals: Array<[unknown, string, string?]> = [
    [{ channel: 'weather', patch: { enabled: false } }, 'channel must be one of [apps, mentions, chat, calls, tasks, billing, security, system]', 'channel'],
    [{ channel: 'chat' }, 'patch is required', 'patch'],
    [{ channel: 'chat', patch: {} }, 'patch must set at least one of enabled, toast, push, sound'],
    [{ channel: 'chat', patch: { enabled: 'sometimes' } }, 'patch.enabled must be a boolean', 'patch.enabled'],
    [{ channel: 'chat', patch: { sound: '' } }, 'patch.sound is not allowed to be empty', 'patch.sound'],
    [{ channel: 'chat', patch: { sound: 'a'.repeat(51) } }, 'patch.sound length must be less than or equal to 50 characters long', 'patch.sound'],
    [{ channel: 'chat', patch: { sound: 'ding dong' } }, 'patch.sound with value ding dong fails to match the sound name (letters, digits, - and _) pattern', 'patch.sound'],
  ];
  for (const [payload, error, field] of refusals) {
    const answer = await call('PATCH', '/me/notification-preferences', member.headers(), payload);
    t.is(answer.statusCode, 400, error);
    t.deepEqual(body(answer), field === undefined ? { error } : { error, field });
  }
  const muted = await call('PATCH', '/me/notification-preferences', member.headers(), { channel: 'chat', patch: { push: false, sound: 'none' } });
  t.is(muted.statusCode, 200);
  t.deepEqual(body(muted), { data: { channel: 'chat', enabled: true, toast: true, push: false, sound: 'none', customized: true }, links: { self: '/me/notification-preferences' } });
  const toastOff = body(await call('PATCH', '/me/notification-preferences', member.headers(), { channel: 'chat', patch: { toast: false } })).data;
  t.deepEqual(toastOff, { channel: 'chat', enabled: true, toast: false, push: false, sound: 'none', customized: true });
  const listed = body(await call('GET', '/me/notification-preferences', member.headers())).data;
  t.deepEqual(listed[2], toastOff);
  // Each member has their own.
  t.is(body(await call('GET', '/me/notification-preferences', ws.owner.headers())).data[2].customized, false);

  // Without a channel (the specification leaves it optional) the patch applies to every channel, in one answer.
  const everywhere = await call('PATCH', '/me/notification-preferences', member.headers(), { patch: { sound: 'chime' } });
  t.is(everywhere.statusCode, 200, JSON.stringify(body(everywhere)));
  const all = body(everywhere);
  t.deepEqual(all.data.map((row: { channel: string; sound: string; customized: boolean }) => [row.channel, row.sound, row.customized]), [
    ['apps', 'chime', true],
    ['mentions', 'chime', true],
    ['chat', 'chime', true],
    ['calls', 'chime', true],
    ['tasks', 'chime', true],
    ['billing', 'chime', true],
    ['security', 'chime', true],
    ['system', 'chime', true],
  ]);
  t.deepEqual(all.data[2], { ...toastOff, sound: 'chime' }, 'the other fields of a channel stay');
  t.deepEqual(all.pagination, { page: 1, per_page: 8, total: 8, pages: 1 });
  t.deepEqual(body(await call('GET', '/me/notification-preferences', member.headers())).data, all.data);
  const empty = await call('PATCH', '/me/notification-preferences', member.headers(), { patch: {} });
  t.deepEqual([empty.statusCode, body(empty)], [400, { error: 'patch must set at least one of enabled, toast, push, sound' }]);
});

test('a notification fans out as each recipient\'s channel preferences say: in-app, mail, web push, phone push', async (t) => {
  const ws = await workspace();
  const admin = await ws.member('admin', [], 'Ada');
  const requester = await ws.member('member', [], 'Rick');
  const ownerBrowser = await subscribe(ws.owner);
  const adminBrowser = await subscribe(admin);
  const phoneToken = `owner-phone-${'x'.repeat(20)}`;
  t.is((await call('POST', '/push-devices', ws.owner.headers(), { token: phoneToken, platform: 'android' })).statusCode, 200);
  // The admin turns the apps channel off: nothing of it reaches them.
  t.is((await call('PATCH', '/me/notification-preferences', admin.headers(), { channel: 'apps', patch: { enabled: false } })).statusCode, 200);
  t.is((await call('PATCH', '/me/notification-preferences', ws.owner.headers(), { channel: 'apps', patch: { sound: 'chime' } })).statusCode, 200);
  // Other tests run at the same time: count only this workspace's mails and this phone's pushes.
  const ours = () => mails.filter((mail) => mail.to === ws.owner.email || mail.to === admin.email);
  const phoneSent = () => phones.sent.filter((sent) => sent.device.token === phoneToken);
  const mailsBefore = ours().length;

  const requested = await call('POST', '/applications/notes/requests', requester.headers());
  t.is(requested.statusCode, 200);
  t.is(body(requested).data.notified, 2);
  await waitFor('the owner\'s web push', () => pushService.pushesTo(ownerBrowser).length === 1 && phoneSent().length === 1);

  const [stored] = body(await call('GET', '/notifications', ws.owner.headers())).data;
  t.like(stored, { kind: 'app.install_requested', channel: 'apps', title: 'Rick asks to install Notes', link: '/admin/apps#app-notes' });
  t.is(body(await call('GET', '/notifications', admin.headers())).pagination.total, 0);
  t.deepEqual(
    ours().slice(mailsBefore).map((mail) => [mail.to, mail.subject]),
    [[ws.owner.email, 'Rick asks to install Notes']],
  );
  const expected = { id: stored.id, kind: 'app.install_requested', channel: 'apps', title: 'Rick asks to install Notes', body: stored.body, link: '/admin/apps#app-notes', sound: 'chime', workspace: ws.subdomain };
  const [push] = pushService.pushesTo(ownerBrowser);
  t.deepEqual(push.message, expected);
  t.is(push.vapidKey, body(await call('GET', '/push-subscriptions/key', ws.owner.headers())).data.public_key);
  t.is(push.claims.sub, 'mailto:no-reply@localhost.localdomain');
  t.is(push.ttl, '3600');
  t.deepEqual(pushService.pushesTo(adminBrowser), []);
  t.deepEqual(phoneSent(), [{ device: { token: phoneToken, platform: 'android' }, message: expected }]);
  t.deepEqual(pushService.refused, []);

  // Push off: stored and mailed, never pushed.
  t.is((await call('PATCH', '/me/notification-preferences', ws.owner.headers(), { channel: 'apps', patch: { push: false } })).statusCode, 200);
  const mailsBeforeSecond = ours().length;
  t.is((await call('POST', '/applications/notes/requests', requester.headers())).statusCode, 200);
  await waitFor('the mail', () => ours().length === mailsBeforeSecond + 1);
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.is(body(await call('GET', '/notifications', ws.owner.headers())).pagination.total, 2);
  t.is(pushService.pushesTo(ownerBrowser).length, 1);
  t.is(phoneSent().length, 1);
});

test('a failed request stores, mails and pushes nothing', async (t) => {
  const ws = await workspace();
  const browser = await subscribe(ws.owner);
  await ws.install('notes');
  const member = await ws.member();
  const mailsBefore = mails.filter((mail) => mail.to === ws.owner.email).length;
  const refused = await call('POST', '/applications/notes/requests', member.headers());
  t.is(refused.statusCode, 409);
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.is(body(await call('GET', '/notifications', ws.owner.headers())).pagination.total, 0);
  t.is(mails.filter((mail) => mail.to === ws.owner.email).length, mailsBefore);
  t.deepEqual(pushService.pushesTo(browser), []);
});

test('a push service answering 404 or 410 removes the subscription; another failure keeps it; an unregistered phone is removed', async (t) => {
  const ws = await workspace();
  const requester = await ws.member();
  const gone = await subscribe(ws.owner);
  const unknown = await subscribe(ws.owner);
  const busy = await subscribe(ws.owner);
  const alive = await subscribe(ws.owner);
  pushService.answer(gone, 410);
  pushService.answer(unknown, 404);
  pushService.answer(busy, 503);
  const token = `uninstalled-${'y'.repeat(20)}`;
  t.is((await call('POST', '/push-devices', ws.owner.headers(), { token, platform: 'ios' })).statusCode, 200);
  phones.unregister(token);

  t.is((await call('POST', '/applications/notes/requests', requester.headers())).statusCode, 200);
  const endpoints = async () => (await rows('SELECT endpoint FROM platform.push_subscriptions WHERE workspace_id = :id ORDER BY endpoint', { id: ws.id })).map((row) => row.endpoint);
  await waitFor('the expired subscriptions to go', async () => (await endpoints()).length === 2 && (await rows('SELECT id FROM platform.push_devices WHERE workspace_id = :id', { id: ws.id })).length === 0);
  t.deepEqual(await endpoints(), [busy.endpoint, alive.endpoint].sort());
  t.deepEqual(
    [gone, unknown, busy, alive].map((browser) => pushService.pushesTo(browser).map((push) => push.status)),
    [[410], [404], [503], [201]],
  );
});
