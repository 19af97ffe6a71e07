import test from 'ava';
import { TooManyRequestsError } from '@wpk/sdk';
import { QueryTypes } from 'sequelize';
import { HASHING_REFUSALS, HashingLimiter } from '../src/identity/services/hashing-limiter.js';
import { linkIn } from './helpers/identity-mail.js';
import { startIdentityRuntime, type IdentityTestRuntime } from './helpers/identity-runtime.js';

// Password hashing is bounded: globally (slots and a queue) and per client address. Work is held
// with gates (promises the test resolves), so every assertion is about order and state, never time.

/** A promise the test resolves when it chooses. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** The refusal `promise` settles with, or null when it resolved. */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string; headers: Record<string, string> } | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    if (!(error instanceof TooManyRequestsError)) throw error;
    return { status: error.status, message: error.message, headers: error.headers };
  }
}

const busy = { status: 429, message: HASHING_REFUSALS.busy, headers: { 'Retry-After': '1' } };
const perClient = { status: 429, message: HASHING_REFUSALS.client, headers: { 'Retry-After': '1' } };

test('the limiter runs at most `concurrency` at once, queues at most `queue`, then refuses with 429 and Retry-After', async (t) => {
  const limiter = new HashingLimiter({ concurrency: 2, queue: 1, perClient: 5, reserved: 0 });
  const held = gate();
  const running = [limiter.run('a', () => held.promise), limiter.run('b', () => held.promise)];
  const queued = limiter.run('c', async () => 'c ran');
  t.deepEqual(limiter.load(), { running: 2, waiting: 1, clients: 3 });
  t.deepEqual(await refusal(limiter.run('d', async () => 'never')), busy);
  // `check` answers the same without reserving anything.
  t.throws(() => limiter.check('d'), { instanceOf: TooManyRequestsError, message: HASHING_REFUSALS.busy });
  t.deepEqual(limiter.load(), { running: 2, waiting: 1, clients: 3 });
  held.open();
  await Promise.all(running);
  t.is(await queued, 'c ran');
  t.deepEqual(limiter.load(), { running: 0, waiting: 0, clients: 0 });
});

test('one client holds at most `perClient` places (running or waiting); other clients are still admitted', async (t) => {
  const limiter = new HashingLimiter({ concurrency: 1, queue: 10, perClient: 2, reserved: 0 });
  const held = gate();
  const first = limiter.run('flood', () => held.promise);
  const second = limiter.run('flood', async () => 'second');
  t.deepEqual(await refusal(limiter.run('flood', async () => 'never')), perClient);
  t.throws(() => limiter.check('flood'), { instanceOf: TooManyRequestsError, message: HASHING_REFUSALS.client });
  t.notThrows(() => limiter.check('someone else'));
  const other = limiter.run('someone else', async () => 'admitted');
  t.deepEqual(limiter.load(), { running: 1, waiting: 2, clients: 2 });
  held.open();
  await first;
  t.deepEqual([await second, await other], ['second', 'admitted']);
  // Its places back, the client is admitted again.
  t.is(await limiter.run('flood', async () => 'again'), 'again');
});

test('waiting work runs in arrival order, and a freed slot is never taken by a newcomer', async (t) => {
  const limiter = new HashingLimiter({ concurrency: 1, queue: 10, perClient: 10, reserved: 0 });
  const held = gate();
  const order: string[] = [];
  const first = limiter.run('x', async () => {
    await held.promise;
    order.push('first');
  });
  const waiting = ['a', 'b', 'c', 'd'].map((name) => limiter.run(name, async () => {
    order.push(name);
  }));
  held.open();
  await first;
  const late = limiter.run('late', async () => {
    order.push('late');
  });
  await Promise.all([...waiting, late]);
  t.deepEqual(order, ['first', 'a', 'b', 'c', 'd', 'late']);
});

test('a slot and the client’s place are released when the work throws', async (t) => {
  const limiter = new HashingLimiter({ concurrency: 1, queue: 1, perClient: 1, reserved: 0 });
  const held = gate();
  const failing = limiter.run('a', async () => {
    await held.promise;
    throw new Error('scrypt failed');
  });
  const next = limiter.run('b', async () => 'b ran');
  held.open();
  await t.throwsAsync(failing, { message: 'scrypt failed' });
  t.is(await next, 'b ran');
  t.deepEqual(limiter.load(), { running: 0, waiting: 0, clients: 0 });
  t.is(await limiter.run('a', async () => 'a again'), 'a again');
});

// Through HTTP: one process with one hashing slot, a queue of three and two places per address.
let env: IdentityTestRuntime;
const OWNER = { email: 'hana@acme.test', password: 'hana-owner-password' };
const FLOOD = '203.0.113.7';
const LEGIT = '198.51.100.20';

test.before(async () => {
  env = await startIdentityRuntime({ scryptLogN: 10, passwordHashing: { concurrency: 1, queue: 3, perClient: 2, reserved: 0 } });
  await env.runtime.identity.createWorkspaceWithOwner({ subdomain: 'acme', name: 'Acme', ownerEmail: OWNER.email, ownerPassword: OWNER.password });
});

test.after.always(async () => {
  await env?.close();
});

const inject = (options: { method?: string; url: string; host?: string; from: string; payload?: object; cookie?: string }) =>
  env.runtime.server.inject({
    method: options.method ?? 'POST',
    url: options.url,
    remoteAddress: options.from,
    headers: { host: options.host ?? 'acme.localhost', 'x-api-version': '2026-11-01', 'content-type': 'application/json', ...(options.cookie ? { cookie: options.cookie, 'sec-fetch-site': 'same-origin' } : {}) },
    payload: options.payload,
  });

const answer = (response: { statusCode: number; payload: string; headers: Record<string, unknown> }) => [response.statusCode, JSON.parse(response.payload), response.headers['retry-after'] ?? null];

/** Waits (without any deadline of its own) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

test.serial('a flood of sign-ins from one address: the extra ones get 429 + Retry-After, another address is still admitted', async (t) => {
  const limiter = env.runtime.identity.context.passwords.limiter;
  const held = gate();
  // Every slot busy: whatever is admitted now waits in the queue, in view.
  const holder = limiter.run('the test', () => held.promise);
  let settled = 0;
  const flood = Array.from({ length: 8 }, (_, index) =>
    inject({ url: '/sessions', from: FLOOD, payload: { email: `random${index}@flood.test`, password: 'a random guess' } }).finally(() => {
      settled += 1;
    }),
  );
  await until(() => settled === 6 && limiter.load().waiting === 2);
  const legit = inject({ url: '/sessions', from: LEGIT, payload: OWNER });
  await until(() => limiter.load().waiting === 3);
  // The queue is full now: a third address is turned away too, with the other message.
  const third = await inject({ url: '/sessions', from: '192.0.2.9', payload: OWNER });
  t.deepEqual(answer(third), [429, { error: HASHING_REFUSALS.busy }, '1']);
  held.open();
  await holder;
  const answers = (await Promise.all(flood)).map(answer);
  t.deepEqual(answers.filter(([status]) => status === 429), Array.from({ length: 6 }, () => [429, { error: HASHING_REFUSALS.client }, '1']));
  t.deepEqual(answers.filter(([status]) => status !== 429), Array.from({ length: 2 }, () => [401, { error: 'Invalid email or password' }, null]));
  const signedIn = await legit;
  t.is(signedIn.statusCode, 200, signedIn.payload);
  // A refused attempt was never evaluated, so it does not count against its email's bound.
  const [{ counted }] = await env.runtime.db.sequelize.query<{ counted: number }>(`SELECT coalesce(sum(cardinality(hits)), 0)::int AS counted FROM platform.throttle_counters WHERE key LIKE 'sign-in:%@flood.test'`, { type: QueryTypes.SELECT });
  t.is(counted, 2);
  t.deepEqual(limiter.load(), { running: 0, waiting: 0, clients: 0 });
});

test.serial('every route that hashes or checks a password is bounded, and a refused request changes nothing', async (t) => {
  const limiter = env.runtime.identity.context.passwords.limiter;
  const signedIn = await inject({ url: '/sessions', from: LEGIT, payload: OWNER });
  const cookie = String((signedIn.headers['set-cookie'] as string[])[0]).split(';')[0];
  // A pending sign-up, an invitation and a password reset, each with its mailed secret.
  t.is((await inject({ url: '/signup', host: 'localhost', from: LEGIT, payload: { email: 'nina@example.test', name: 'Nina', workspace_name: 'Beta', subdomain: 'beta' } })).statusCode, 200);
  const code = /^\s{4}([0-9A-Z]{10})$/m.exec((await env.smtp.waitFor('nina@example.test')).text)![1];
  t.is((await inject({ url: '/invitations', from: LEGIT, cookie, payload: { email: 'ivan@acme.test' } })).statusCode, 200);
  const invitation = new URL(linkIn(await env.smtp.waitFor('ivan@acme.test'))).pathname;
  t.is((await inject({ url: '/password-resets', from: LEGIT, payload: { email: OWNER.email } })).statusCode, 200);
  const reset = new URL(linkIn(await env.smtp.waitFor(OWNER.email, (mail) => mail.subject === 'Reset your password'))).pathname;

  const routes: Array<{ name: string; send: () => ReturnType<typeof inject>; then: number }> = [
    { name: 'sign-in', send: () => inject({ url: '/sessions', from: FLOOD, payload: OWNER }), then: 200 },
    { name: 'verification', send: () => inject({ url: '/verifications', host: 'localhost', from: FLOOD, payload: { code, password: 'nina-new-password' } }), then: 200 },
    { name: 'invitation acceptance', send: () => inject({ method: 'PUT', url: invitation, from: FLOOD, payload: { password: 'ivan-new-password' } }), then: 200 },
    // 2FA is off: once admitted, the password checks out and the answer is 409.
    { name: 'turning 2FA off', send: () => inject({ method: 'DELETE', url: '/totps', from: FLOOD, cookie, payload: { password: OWNER.password } }), then: 409 },
    { name: 'elevation by password', send: () => inject({ url: '/elevations', from: FLOOD, cookie, payload: { reason: 'checking the bound', password: OWNER.password } }), then: 200 },
    { name: 'password reset', send: () => inject({ method: 'PUT', url: reset, from: FLOOD, payload: { password: 'hana-newer-password' } }), then: 200 },
  ];
  const held = gate();
  // The flooding address already holds both of its places.
  const places = [limiter.run(FLOOD, () => held.promise), limiter.run(FLOOD, () => held.promise)];
  const throttled = async () => (await env.runtime.db.sequelize.query<{ n: number }>('SELECT coalesce(sum(cardinality(hits)), 0)::int AS n FROM platform.throttle_counters', { type: QueryTypes.SELECT }))[0].n;
  const countedBefore = await throttled();
  for (const route of routes) t.deepEqual(answer(await route.send()), [429, { error: HASHING_REFUSALS.client }, '1'], route.name);
  t.is(await throttled(), countedBefore);
  held.open();
  await Promise.all(places);
  // Nothing was used up: each secret still works, from the same address, once it has room.
  for (const route of routes) {
    const response = await route.send();
    t.is(response.statusCode, route.then, `${route.name}: ${response.payload}`);
  }
});
