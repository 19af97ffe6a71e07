import test from 'ava';
import { QueryTypes } from 'sequelize';
import { Runtime } from '../src/index.js';
import { send } from './helpers/identity-http.js';
import { linkIn } from './helpers/identity-mail.js';
import { startIdentityRuntime, signIn, type IdentityTestRuntime } from './helpers/identity-runtime.js';

// Password resets (hashed tokens, one hour, one use, burning ends every session on every
// process) and sign-in throttling. scrypt runs at a low cost here so a hundred failed sign-ins
// stay quick; identity-sessions checks the production cost (N=2^17).
let env: IdentityTestRuntime;
let second: Runtime;

const OWNER = { email: 'rita@acme.test', password: 'rita-owner-password' };

test.before(async () => {
  // Batches of ten concurrent sign-ins from one address: room for them in the hashing limiter, and
  // no places kept from a failing address (identity-hashing and identity-sign-in-defence cover those).
  env = await startIdentityRuntime({ scryptLogN: 10, passwordHashing: { perClient: 10, reserved: 0 } });
  await env.runtime.identity.createWorkspaceWithOwner({ subdomain: 'acme', name: 'Acme', ownerEmail: OWNER.email, ownerPassword: OWNER.password });
  // A second server process on the same database.
  second = await Runtime.create({ logLevel: 'silent', port: 0, databaseUrl: env.runtime.db.url, dataDir: env.dataDir, scryptLogN: 10, configFile: false });
});

test.after.always(async () => {
  await second?.stop();
  await env?.close();
});

test.serial('a reset link is mailed, stored hashed, and lives one hour', async (t) => {
  const answer = await env.browser().post('acme', '/password-resets', { email: 'RITA@acme.test' });
  t.is(answer.status, 200);
  t.deepEqual(answer.body.data, { message: 'If this email has an account here, a password-reset link is on its way; it works once, for one hour' });
  const mail = await env.smtp.waitFor(OWNER.email, (candidate) => candidate.subject === 'Reset your password');
  const link = linkIn(mail);
  t.regex(link, /^http:\/\/acme\.localhost(:\d+)?\/password-resets\/[A-Za-z0-9_-]{43}$/);
  const token = link.split('/').pop()!;
  const rows = await env.runtime.db.sequelize.query<{ token_hash: string; ttl: number }>(`SELECT token_hash, extract(epoch FROM expires_at - created_at)::int AS ttl FROM platform.password_resets`, { type: QueryTypes.SELECT });
  t.is(rows.length, 1);
  t.not(rows[0].token_hash, token);
  t.regex(rows[0].token_hash, /^[0-9a-f]{64}$/);
  t.true(Math.abs(rows[0].ttl - 3600) <= 1, String(rows[0].ttl));
});

test.serial('an unknown email gets the same answer and no mail', async (t) => {
  const before = env.smtp.mails.length;
  const known = await env.browser().post('acme', '/password-resets', { email: OWNER.email });
  const unknown = await env.browser().post('acme', '/password-resets', { email: 'ghost@acme.test' });
  t.deepEqual([unknown.status, unknown.body], [known.status, known.body]);
  await env.smtp.waitFor(OWNER.email, () => env.smtp.to(OWNER.email).length >= 2);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(env.smtp.mails.length, before + 1);
  t.deepEqual(env.smtp.to('ghost@acme.test'), []);
});

test.serial('burning a link sets the password, ends every session of the account on every process, and works once', async (t) => {
  const here = env.browser();
  await signIn(here, 'acme', OWNER.email, OWNER.password);
  // A session started on the other process, checked there too.
  const there = await second.server.inject({ method: 'POST', url: '/sessions', headers: { host: 'acme.localhost', 'x-api-version': '2026-11-01', 'content-type': 'application/json' }, payload: OWNER });
  t.is(there.statusCode, 200, there.payload);
  const thereCookie = String((there.headers['set-cookie'] as string[])[0]).split(';')[0];
  const onSecond = () => second.server.inject({ method: 'GET', url: '/me', headers: { host: 'acme.localhost', 'x-api-version': '2026-11-01', cookie: thereCookie } });
  t.is((await onSecond()).statusCode, 200);
  t.is((await here.get('acme', '/me')).status, 200);

  const mailed = env.smtp.to(OWNER.email).length;
  const request = await env.browser().post('acme', '/password-resets', { email: OWNER.email });
  t.is(request.status, 200);
  await env.smtp.waitFor(OWNER.email, () => env.smtp.to(OWNER.email).length > mailed);
  const link = linkIn(env.smtp.to(OWNER.email).at(-1)!);
  const path = new URL(link).pathname;

  const short = await env.browser().put('acme', path, { password: 'short' });
  t.deepEqual([short.status, short.body], [400, { error: 'password length must be at least 8 characters long', field: 'password' }]);
  const missing = await env.browser().put('acme', path, {});
  t.deepEqual([missing.status, missing.body], [400, { error: 'password is required', field: 'password' }]);

  const burned = await env.browser().put('acme', path, { password: 'rita-new-password' });
  t.is(burned.status, 200, burned.text);
  t.deepEqual(burned.body.data, { message: 'Password changed; every session of this account has ended: sign in again' });

  // Signed out everywhere, on both processes, at the very next request.
  t.deepEqual([(await here.get('acme', '/me')).status], [401]);
  const afterOnSecond = await onSecond();
  t.is(afterOnSecond.statusCode, 401);
  t.deepEqual(JSON.parse(afterOnSecond.payload), { error: 'Authentication required' });

  // The link (and every older one) is used up.
  const again = await env.browser().put('acme', path, { password: 'yet-another-password' });
  t.deepEqual([again.status, again.body], [404, { error: 'This password-reset link is invalid, expired or already used' }]);
  const first = linkIn(env.smtp.to(OWNER.email)[0]);
  const older = await env.browser().put('acme', new URL(first).pathname, { password: 'yet-another-password' });
  t.is(older.status, 404);

  const oldPassword = await env.browser().post('acme', '/sessions', OWNER);
  t.is(oldPassword.status, 401);
  await signIn(env.browser(), 'acme', OWNER.email, 'rita-new-password');
  OWNER.password = 'rita-new-password';
});

test.serial('a stamp rotated by another process ends sessions even if their rows survive (no cache)', async (t) => {
  const browser = env.browser();
  await signIn(browser, 'acme', OWNER.email, OWNER.password);
  t.is((await browser.get('acme', '/me')).status, 200);
  await second.db.sequelize.query(`UPDATE platform.accounts SET security_stamp = gen_random_uuid() WHERE email = :email`, { replacements: { email: OWNER.email } });
  t.is((await browser.get('acme', '/me')).status, 401);
});

test.serial('an expired link is refused', async (t) => {
  const count = env.smtp.to(OWNER.email).length;
  await env.browser().post('acme', '/password-resets', { email: OWNER.email });
  await env.smtp.waitFor(OWNER.email, () => env.smtp.to(OWNER.email).length > count);
  const path = new URL(linkIn(env.smtp.to(OWNER.email).at(-1)!)).pathname;
  await env.runtime.db.sequelize.query(`UPDATE platform.password_resets SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`);
  const expired = await env.browser().put('acme', path, { password: 'too-late-password' });
  t.deepEqual([expired.status, expired.body], [404, { error: 'This password-reset link is invalid, expired or already used' }]);
});

test.serial('100 failed sign-ins per account per hour, then 429 with Retry-After, even for the right password; unknown emails alike', async (t) => {
  const attempt = (email: string, password: string) => send(env.baseUrl, { host: 'acme.localhost', method: 'POST', path: '/sessions', headers: { 'x-api-version': '2026-11-01' }, json: { email, password } });
  // The failed sign-in with the old password above counts too: start from none.
  await env.runtime.db.sequelize.query(`DELETE FROM platform.throttle_counters WHERE key LIKE 'sign-in:%'`);
  for (const email of [OWNER.email, 'nobody@acme.test']) {
    for (let batch = 0; batch < 10; batch += 1) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => attempt(email, 'wrong password')));
      for (const answer of answers) t.deepEqual([answer.status, answer.body], [401, { error: 'Invalid email or password' }]);
    }
    const limited = await attempt(email, email === OWNER.email ? OWNER.password : 'wrong password');
    t.is(limited.status, 429, email);
    t.deepEqual(limited.body, { error: 'Too many failed sign-ins for this account; try again later, or sign in from a browser you have signed in with before' });
    const retryAfter = Number(limited.headers['retry-after']);
    t.true(retryAfter > 3500 && retryAfter <= 3600, `${email}: ${retryAfter}`);
  }
  // Another account is not affected.
  await env.runtime.identity.addMember({ workspaceId: (await env.runtime.workspaces.findBySubdomain('acme'))!.id, email: 'sam@acme.test', password: 'sam-member-password', platformRole: 'member' });
  await signIn(env.browser(), 'acme', 'sam@acme.test', 'sam-member-password');
  // When the oldest failures leave the hour, sign-in works again.
  await env.runtime.db.sequelize.query(`UPDATE platform.throttle_counters SET hits = ARRAY(SELECT h - interval '61 minutes' FROM unnest(hits) AS h) WHERE key = :key`, { replacements: { key: `sign-in:${OWNER.email}` } });
  await signIn(env.browser(), 'acme', OWNER.email, OWNER.password);
});

test.serial('reset requests are bounded per address (5 an hour) without changing the answer', async (t) => {
  await env.runtime.db.sequelize.query(`DELETE FROM platform.throttle_counters WHERE key LIKE 'mail:%'`);
  const before = env.smtp.to('sam@acme.test').length;
  const answers: Array<{ status: number; body: any }> = [];
  for (let index = 0; index < 7; index += 1) answers.push(await env.browser().post('acme', '/password-resets', { email: 'sam@acme.test' }));
  t.true(answers.every((answer) => answer.status === 200 && answer.body.data.message === answers[0].body.data.message));
  await env.smtp.waitFor('sam@acme.test', () => env.smtp.to('sam@acme.test').length >= before + 5);
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.is(env.smtp.to('sam@acme.test').length, before + 5);
});
