import test from 'ava';
import { TooManyRequestsError } from '@wpk/sdk';
import { QueryTypes } from 'sequelize';
import { resolveConfig } from '../src/config.js';
import { DEVICE_COOKIE, LOCKOUT_MAIL, THROTTLES } from '../src/identity/index.js';
import { HASHING_REFUSALS, HashingLimiter } from '../src/identity/services/hashing-limiter.js';
import { resolveClientAddress, TrustedProxies } from '../src/server/index.js';
import { startIdentityRuntime, type IdentityTestRuntime } from './helpers/identity-runtime.js';

// Issue 38, items 2 and 3: sign-in that nobody can deny to a known browser. The client address
// behind a trusted proxy, the password-check places kept for trusted work, and the lockout per
// account and untrusted client, with its one mail to the owner.

let env: IdentityTestRuntime;
const OWNER = { email: 'hana@acme.test', password: 'hana-owner-password' };
const MEMBER = { email: 'milo@acme.test', password: 'milo-member-password' };
const PROXY = '10.0.0.5';

test.before(async () => {
  env = await startIdentityRuntime({ scryptLogN: 10, trustedProxies: ['10.0.0.0/8', '::1'], passwordHashing: { concurrency: 1, queue: 3, perClient: 2, reserved: 2 } });
  const acme = await env.runtime.identity.createWorkspaceWithOwner({ subdomain: 'acme', name: 'Acme', ownerEmail: OWNER.email, ownerPassword: OWNER.password });
  await env.runtime.identity.addMember({ workspaceId: acme.workspaceId, email: MEMBER.email, password: MEMBER.password, platformRole: 'member' });
});

test.after.always(async () => {
  await env?.close();
});

const signIn = (options: { from: string; payload: object; cookie?: string; forwardedFor?: string }) =>
  env.runtime.server.inject({
    method: 'POST',
    url: '/sessions',
    remoteAddress: options.from,
    headers: {
      host: 'acme.localhost',
      'x-api-version': '2026-11-01',
      'content-type': 'application/json',
      ...(options.cookie ? { cookie: options.cookie, 'sec-fetch-site': 'same-origin' } : {}),
      ...(options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {}),
    },
    payload: options.payload,
  });

const answer = (response: { statusCode: number; payload: string }) => [response.statusCode, JSON.parse(response.payload)];

/** The known-device cookie a response set, as `name=value`. */
function deviceCookieOf(response: { headers: Record<string, unknown> }): string {
  const line = ([] as string[]).concat((response.headers['set-cookie'] as string[] | string | undefined) ?? []).find((value) => value.startsWith(`${DEVICE_COOKIE}=`));
  if (!line) throw new Error('no known-device cookie was set');
  return line.split(';')[0]!;
}

/** A promise the test resolves when it chooses. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

test('the client address: the socket, unless it is a trusted proxy; then the right-most X-Forwarded-For entry that is not a proxy', (t) => {
  const proxies = new TrustedProxies(['10.0.0.0/8', '192.0.2.1', '2001:db8::/32']);
  t.is(resolveClientAddress('203.0.113.9', '198.51.100.1', proxies), '203.0.113.9');
  t.is(resolveClientAddress('10.1.2.3', '198.51.100.1', proxies), '198.51.100.1');
  t.is(resolveClientAddress('::ffff:10.1.2.3', '198.51.100.1', proxies), '198.51.100.1');
  // The client may write anything left of what the proxies appended: only the right-most stranger counts.
  t.is(resolveClientAddress('10.1.2.3', '1.1.1.1, 198.51.100.7, 192.0.2.1, 10.9.9.9', proxies), '198.51.100.7');
  t.is(resolveClientAddress('10.1.2.3', ['1.1.1.1', '198.51.100.8'], proxies), '198.51.100.8');
  t.is(resolveClientAddress('2001:db8::1', '2001:db9::7', proxies), '2001:db9::7');
  // A proxy that forwarded nothing usable stays the client.
  t.is(resolveClientAddress('10.1.2.3', undefined, proxies), '10.1.2.3');
  t.is(resolveClientAddress('10.1.2.3', 'not-an-address', proxies), '10.1.2.3');
  t.is(resolveClientAddress('10.1.2.3', '10.0.0.1, 192.0.2.1', proxies), '10.1.2.3');
  // No proxies configured (the default): X-Forwarded-For is never read.
  t.is(resolveClientAddress('127.0.0.1', '198.51.100.1', new TrustedProxies([])), '127.0.0.1');
  t.deepEqual(resolveConfig({}, {}).trustedProxies, []);
  t.deepEqual(resolveConfig({}, { TRUSTED_PROXIES: ' 127.0.0.1 , 10.0.0.0/8,::1 ' }).trustedProxies, ['127.0.0.1', '10.0.0.0/8', '::1']);
  t.throws(() => resolveConfig({}, { TRUSTED_PROXIES: '127.0.0.1,proxy.internal' }), { message: 'TRUSTED_PROXIES: "proxy.internal" is not an IP address or CIDR range' });
  t.throws(() => resolveConfig({}, { TRUSTED_PROXIES: '10.0.0.0/33' }), { message: 'TRUSTED_PROXIES: "10.0.0.0/33" has a bad prefix length' });
});

test.serial('behind a trusted proxy the forwarded client is judged (trail and per-address bound); from anywhere else X-Forwarded-For is ignored', async (t) => {
  const signedIn = await signIn({ from: PROXY, forwardedFor: '6.6.6.6, 198.51.100.42', payload: MEMBER });
  t.is(signedIn.statusCode, 200, signedIn.payload);
  const direct = await signIn({ from: '203.0.113.50', forwardedFor: '198.51.100.99', payload: MEMBER });
  t.is(direct.statusCode, 200, direct.payload);
  const trail = await env.runtime.db.sequelize.query<{ ip: string }>(`SELECT ip FROM platform.activity WHERE action = 'session.created' ORDER BY created_at DESC, seq DESC LIMIT 2`, { type: QueryTypes.SELECT });
  t.deepEqual(trail.map((row) => row.ip), ['203.0.113.50', '198.51.100.42']);
  // Two clients behind the one proxy each get their own two places; before, the proxy's address was every client's.
  const limiter = env.runtime.identity.context.passwords.limiter;
  const held = gate();
  const places = [limiter.run('198.51.100.1', () => held.promise), limiter.run('198.51.100.1', () => held.promise)];
  const refused = await signIn({ from: PROXY, forwardedFor: '198.51.100.1', payload: MEMBER });
  t.deepEqual(answer(refused), [429, { error: HASHING_REFUSALS.client }]);
  const other = signIn({ from: PROXY, forwardedFor: '198.51.100.2', payload: MEMBER });
  await until(() => limiter.load().waiting === 2);
  held.open();
  await Promise.all(places);
  t.is((await other).statusCode, 200);
});

test('the limiter: untrusted work may not take the reserved places; waiting known devices, then clean addresses, run first', async (t) => {
  const limiter = new HashingLimiter({ concurrency: 1, queue: 4, perClient: 10, reserved: 2 });
  for (const address of ['bad-1', 'bad-2']) limiter.recordFailure(address);
  t.true(limiter.failedRecently('bad-1'));
  t.false(limiter.failedRecently('good'));
  const held = gate();
  const order: string[] = [];
  const job = (name: string) => async () => {
    order.push(name);
  };
  const running = limiter.run('bad-1', () => held.promise, 'untrusted');
  const untrusted = [limiter.run('bad-1', job('untrusted 1'), 'untrusted'), limiter.run('bad-2', job('untrusted 2'), 'untrusted')];
  // Three of five places in use: the last two are kept for trusted work.
  t.throws(() => limiter.check('bad-2', 'untrusted'), { instanceOf: TooManyRequestsError, message: HASHING_REFUSALS.busy });
  const clean = limiter.run('good', job('clean address'), 'clean-address');
  // Half the reserved places are for known devices alone: a burst from fresh addresses cannot take them.
  t.throws(() => limiter.check('good-2', 'clean-address'), { instanceOf: TooManyRequestsError, message: HASHING_REFUSALS.busy });
  const device = limiter.run('device:acct', job('known device'), 'known-device');
  t.deepEqual(limiter.load(), { running: 1, waiting: 4, clients: 4 });
  t.throws(() => limiter.check('another', 'known-device'), { instanceOf: TooManyRequestsError, message: HASHING_REFUSALS.busy });
  held.open();
  await Promise.all([running, ...untrusted, clean, device]);
  t.deepEqual(order, ['known device', 'clean address', 'untrusted 1', 'untrusted 2']);
});

test('with two or more slots, untrusted work runs in all but one: a trusted check starts without waiting for it', async (t) => {
  const limiter = new HashingLimiter({ concurrency: 2, queue: 4, perClient: 10, reserved: 2 });
  const held = gate();
  const first = limiter.run('bad', () => held.promise, 'untrusted');
  const second = limiter.run('bad', async () => 'second ran', 'untrusted');
  t.deepEqual(limiter.load(), { running: 1, waiting: 1, clients: 1 });
  let started = false;
  const device = limiter.run('device:acct', async () => {
    started = true;
  }, 'known-device');
  t.true(started);
  await device;
  held.open();
  await first;
  t.is(await second, 'second ran');
  t.deepEqual(limiter.load(), { running: 0, waiting: 0, clients: 0 });
});

test.serial('under a flood from failing addresses a known device is admitted ahead of the flood; the flood gets 429 first', async (t) => {
  const limiter = env.runtime.identity.context.passwords.limiter;
  const known = await signIn({ from: '198.51.100.77', payload: OWNER });
  t.is(known.statusCode, 200);
  const device = deviceCookieOf(known);
  // Two flooding addresses fail once each: from now on their checks are untrusted.
  for (const address of ['203.0.113.1', '203.0.113.2']) {
    t.is((await signIn({ from: address, payload: { email: `x${address}@flood.test`, password: 'a guess' } })).statusCode, 401);
  }
  const held = gate();
  const holder = limiter.run('the test', () => held.promise);
  let settled = 0;
  const flood = ['203.0.113.1', '203.0.113.1', '203.0.113.2', '203.0.113.2'].map((from, index) =>
    signIn({ from, payload: { email: `flood${index}@flood.test`, password: 'a guess' } }).finally(() => {
      settled += 1;
    }),
  );
  // One slot and three waiting places; untrusted work may hold two of the four (the holder's and one more).
  await until(() => settled === 3 && limiter.load().waiting === 1);
  const legit = signIn({ from: '203.0.113.2', cookie: device, payload: OWNER });
  await until(() => limiter.load().waiting === 2);
  held.open();
  await holder;
  const answers = (await Promise.all(flood)).map(answer);
  t.deepEqual(answers.filter(([status]) => status === 429), Array.from({ length: 3 }, () => [429, { error: HASHING_REFUSALS.busy }]));
  t.deepEqual(answers.filter(([status]) => status !== 429), [[401, { error: 'Invalid email or password' }]]);
  // From a flooding address, through the flood: the cookie, not the address, made it trusted.
  t.is((await legit).statusCode, 200);
});

test.serial('100 wrong passwords lock the account for other browsers only: a known device still signs in, and the owner is mailed once', async (t) => {
  const known = await signIn({ from: '198.51.100.20', payload: MEMBER });
  t.is(known.statusCode, 200);
  const device = deviceCookieOf(known);
  const mailsBefore = env.smtp.to(MEMBER.email).length;
  // A cookie of another account, and a forged one, do not count as this account's known device.
  const otherAccount = deviceCookieOf(await signIn({ from: '198.51.100.21', payload: OWNER }));
  const [, accountId, nonce, issued] = device.slice(DEVICE_COOKIE.length + 1).split('.');
  const forged = `${DEVICE_COOKIE}=v1.${accountId}.${nonce}.${issued}.${'A'.repeat(43)}`;

  for (let attempt = 0; attempt < THROTTLES.signIn.limit; attempt += 1) {
    const from = `192.0.2.${(attempt % 50) + 1}`;
    const wrong = await signIn({ from, payload: { email: MEMBER.email, password: `wrong guess ${attempt}` } });
    t.is(wrong.statusCode, 401, `attempt ${attempt}: ${wrong.payload}`);
  }
  const locked = [429, { error: THROTTLES.signIn.message }];
  t.deepEqual(answer(await signIn({ from: '198.51.100.20', payload: MEMBER })), locked);
  t.deepEqual(answer(await signIn({ from: '198.51.100.20', cookie: otherAccount, payload: MEMBER })), locked);
  t.deepEqual(answer(await signIn({ from: '198.51.100.20', cookie: forged, payload: MEMBER })), locked);
  // The known device: a wrong password is an ordinary 401, the right one signs in (and the cookie is renewed).
  t.deepEqual(answer(await signIn({ from: '192.0.2.1', cookie: device, payload: { email: MEMBER.email, password: 'one more guess' } })), [401, { error: 'Invalid email or password' }]);
  const signedIn = await signIn({ from: '192.0.2.1', cookie: device, payload: MEMBER });
  t.is(signedIn.statusCode, 200, signedIn.payload);
  t.regex(deviceCookieOf(signedIn), /^wpk_device=v1\./);
  // Other accounts are not locked.
  t.is((await signIn({ from: '198.51.100.22', payload: OWNER })).statusCode, 200);

  // Exactly one mail, of a fixed text: no name, nothing a stranger typed.
  await env.smtp.waitFor(MEMBER.email, (mail) => mail.subject === LOCKOUT_MAIL.subject);
  t.is((await signIn({ from: '198.51.100.23', payload: { email: MEMBER.email, password: 'still guessing' } })).statusCode, 429);
  const mails = env.smtp.to(MEMBER.email).slice(mailsBefore);
  t.deepEqual(mails.map((mail) => mail.subject), [LOCKOUT_MAIL.subject]);
  t.is(mails[0]!.text.trim(), LOCKOUT_MAIL.text(env.runtime.config.publicUrl));
  t.false(/guess/.test(mails[0]!.raw));
});

test.serial('a known-device cookie bounds its own failures: 10 wrong passwords through one cookie, then 429 for that cookie only', async (t) => {
  const device = deviceCookieOf(await signIn({ from: '198.51.100.30', payload: OWNER }));
  for (let attempt = 0; attempt < THROTTLES.deviceSignIn.limit; attempt += 1) {
    t.is((await signIn({ from: '198.51.100.30', cookie: device, payload: { email: OWNER.email, password: `guess ${attempt}` } })).statusCode, 401);
  }
  t.deepEqual(answer(await signIn({ from: '198.51.100.30', cookie: device, payload: OWNER })), [429, { error: THROTTLES.deviceSignIn.message }]);
  // The account itself is not locked by them (they never counted against it).
  t.is((await signIn({ from: '198.51.100.31', payload: OWNER })).statusCode, 200);
});
