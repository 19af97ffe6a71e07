import test from 'ava';
import { generate } from 'otplib';
import { QueryTypes } from 'sequelize';
import type { Browser } from './helpers/identity-http.js';
import { startIdentityRuntime, signIn, type IdentityTestRuntime } from './helpers/identity-runtime.js';
import { hasOathtool, independentTotp, nodeTotp, rfc6238 } from './helpers/identity-totp.js';

// TOTP (RFC 6238 via otplib) checked against an independent implementation: Debian's oathtool
// when installed, else a node:crypto implementation verified against the RFC's own vectors.
// The runtime reads the time from its clock seam: the tests move that clock from step to step
// instead of waiting for the real one.
let env: IdentityTestRuntime;
let owner: Browser;
let secret = '';
let recoveryCodes: string[] = [];

const OWNER = { email: 'tess@acme.test', password: 'tess-owner-password' };
const STEP = 30_000;

test.before(async () => {
  env = await startIdentityRuntime({ scryptLogN: 10, seams: { clock: () => new Date(now) } });
  await env.runtime.identity.createWorkspaceWithOwner({ subdomain: 'acme', name: 'Acme', ownerEmail: OWNER.email, ownerPassword: OWNER.password });
  owner = env.browser();
  await signIn(owner, 'acme', OWNER.email, OWNER.password);
});

test.after.always(async () => {
  await env?.close();
});

/** The runtime's time (its clock seam), 1 s into a step: a code of that step cannot age out while its request is in flight. */
let now = (Math.floor(Date.now() / STEP) + 1) * STEP + 1000;
const currentStep = () => Math.floor(now / STEP);
/** Moves the clock to 1 s into step `step` (never backwards). */
const moveTo = (step: number) => (now = Math.max(now, step * STEP + 1000));
const codeFor = (step: number) => independentTotp(secret, step * STEP + 1000);
let lastStep = 0;

/**
 * A code the server has not seen: the step after the last one used, which the ±1 window accepts
 * once it is at most one step ahead (the clock moved on when it is further).
 */
function unusedCode(): string {
  const step = lastStep + 1;
  moveTo(step - 1);
  lastStep = Math.max(step, currentStep() - 1);
  return codeFor(lastStep);
}

test('the independent implementation matches RFC 6238’s test vectors (and oathtool, when installed)', (t) => {
  const key = Buffer.from('12345678901234567890');
  // RFC 6238 appendix B, SHA-1, 8 digits.
  const vectors: Array<[number, string]> = [[59, '94287082'], [1111111109, '07081804'], [1111111111, '14050471'], [1234567890, '89005924'], [2000000000, '69279037'], [20000000000, '65353130']];
  for (const [seconds, code] of vectors) t.is(rfc6238(key, seconds * 1000, 8), code, String(seconds));
  const base32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // the same key, base32
  t.is(nodeTotp(base32, 59_000), '287082');
  if (hasOathtool()) t.is(independentTotp(base32, 59_000), '287082');
  else t.is(independentTotp(base32, 59_000), nodeTotp(base32, 59_000));
});

test.serial('POST /totps starts enrollment: the secret and otpauth URI are returned once, and stored encrypted', async (t) => {
  const started = await owner.post('acme', '/totps');
  t.is(started.status, 200, started.text);
  secret = started.body.data.secret;
  t.regex(secret, /^[A-Z2-7]{32}$/);
  t.is(started.body.data.otpauth_uri, `otpauth://totp/Acme%20(localhost):tess%40acme.test?secret=${secret}&issuer=Acme%20(localhost)`);
  t.like(started.body.data, { digits: 6, period: 30, algorithm: 'SHA1' });
  const [row] = await env.runtime.db.sequelize.query<{ totp_pending_secret: string; totp_secret: string | null }>(`SELECT totp_pending_secret, totp_secret FROM platform.accounts WHERE email = :email`, { type: QueryTypes.SELECT, replacements: { email: OWNER.email } });
  t.is(row.totp_secret, null);
  t.false(row.totp_pending_secret.includes(secret));
  t.regex(row.totp_pending_secret, /^v1\./);
  // 2FA is not on yet: signing in needs no code.
  await signIn(env.browser(), 'acme', OWNER.email, OWNER.password);
});

test.serial('PUT /totps enables 2FA with a code from the independent implementation and returns recovery codes once', async (t) => {
  const bounds = [
    [{}, 'code is required', 'code'],
    [{ code: '12345' }, 'code length must be 6 characters long', 'code'],
    [{ code: '1234567' }, 'code length must be 6 characters long', 'code'],
  ] as const;
  for (const [json, error, field] of bounds) {
    const answer = await owner.put('acme', '/totps', json);
    t.deepEqual([answer.status, answer.body], [400, { error, field }], JSON.stringify(json));
  }
  const wrongCode = String((Number(independentTotp(secret)) + 500_000) % 1_000_000).padStart(6, '0');
  const wrong = await owner.put('acme', '/totps', { code: wrongCode });
  t.deepEqual([wrong.status, wrong.body], [400, { error: 'Invalid TOTP code' }]);

  lastStep = currentStep();
  const enabled = await owner.put('acme', '/totps', { code: codeFor(lastStep) });
  t.is(enabled.status, 200, enabled.text);
  t.is(enabled.body.data.enabled, true);
  recoveryCodes = enabled.body.data.recovery_codes;
  t.is(recoveryCodes.length, 10);
  t.is(new Set(recoveryCodes).size, 10);
  for (const code of recoveryCodes) t.regex(code, /^[0-9A-HJKMNP-TV-Z]{10}$/);
  const stored = await env.runtime.db.sequelize.query<{ code_hash: string }>('SELECT code_hash FROM platform.recovery_codes', { type: QueryTypes.SELECT });
  t.is(stored.length, 10);
  t.false(stored.some((row) => recoveryCodes.includes(row.code_hash.trim())));
  t.is((await owner.get('acme', '/me')).body.data.two_factor_enabled, true);
  const again = await owner.post('acme', '/totps');
  t.deepEqual([again.status, again.body], [409, { error: 'Two-factor authentication is already on; turn it off (DELETE /totps) before enrolling again' }]);
});

test.serial('sign-in then requires the TOTP code; a code is accepted once (replay refused)', async (t) => {
  const missing = await env.browser().post('acme', '/sessions', OWNER);
  t.deepEqual([missing.status, missing.body], [401, { error: 'Two-factor authentication is on: send the TOTP code from your authenticator app in totp' }]);
  t.deepEqual(missing.cookies, []);

  // The enrollment code's step is used up; take the next step's code.
  const code = unusedCode();
  const first = env.browser();
  const ok = await first.post('acme', '/sessions', { ...OWNER, totp: code });
  t.is(ok.status, 200, ok.text);
  t.truthy(first.session);

  const replay = await env.browser().post('acme', '/sessions', { ...OWNER, totp: code });
  t.deepEqual([replay.status, replay.body], [401, { error: 'Invalid TOTP code' }]);

  // A code of an earlier step than the one used, though within the ±1 window, is refused too.
  const older = await env.browser().post('acme', '/sessions', { ...OWNER, totp: codeFor(lastStep - 1) });
  t.is(older.status, 401);
});

test.serial('the server accepts codes of the neighbouring steps (±1) from the independent implementation, not further', async (t) => {
  const farAhead = await env.browser().post('acme', '/sessions', { ...OWNER, totp: codeFor(currentStep() + 2) });
  t.deepEqual([farAhead.status, farAhead.body], [401, { error: 'Invalid TOTP code' }]);
  moveTo(lastStep);
  lastStep = currentStep() + 1;
  const oneAhead = codeFor(lastStep);
  const ahead = await env.browser().post('acme', '/sessions', { ...OWNER, totp: oneAhead });
  t.is(ahead.status, 200, ahead.text);
  // otplib's own generator agrees with the independent implementation.
  t.is(await generate({ secret, epoch: lastStep * 30 + 1 }), oneAhead);
});

test.serial('a recovery code signs in once (lost phone)', async (t) => {
  const recovery = env.browser();
  const ok = await recovery.post('acme', '/sessions', { ...OWNER, totp: recoveryCodes[0].toLowerCase() });
  t.is(ok.status, 200, ok.text);
  const reused = await env.browser().post('acme', '/sessions', { ...OWNER, totp: recoveryCodes[0] });
  t.deepEqual([reused.status, reused.body], [401, { error: 'Invalid TOTP code' }]);
  const [{ used }] = await env.runtime.db.sequelize.query<{ used: number }>('SELECT count(*)::int AS used FROM platform.recovery_codes WHERE used_at IS NOT NULL', { type: QueryTypes.SELECT });
  t.is(used, 1);
});

test.serial('wrong TOTP codes are bounded: the sixth within 15 minutes is 429 with Retry-After, even with the right code', async (t) => {
  const wrong = String((Number(independentTotp(secret)) + 123_457) % 1_000_000).padStart(6, '0');
  const [{ before }] = await env.runtime.db.sequelize.query<{ before: number }>(`SELECT coalesce(sum(cardinality(hits)), 0)::int AS before FROM platform.throttle_counters WHERE key LIKE 'totp:%'`, { type: QueryTypes.SELECT });
  for (let attempt = before; attempt < 5; attempt += 1) {
    const answer = await env.browser().post('acme', '/sessions', { ...OWNER, totp: wrong });
    t.deepEqual([answer.status, answer.body], [401, { error: 'Invalid TOTP code' }], `attempt ${attempt + 1}`);
  }
  const code = unusedCode();
  const limited = await env.browser().post('acme', '/sessions', { ...OWNER, totp: code });
  t.is(limited.status, 429);
  t.deepEqual(limited.body, { error: 'Too many wrong two-factor codes; try again later' });
  const retryAfter = Number(limited.headers['retry-after']);
  t.true(retryAfter > 0 && retryAfter <= 900, String(retryAfter));
  // The bound also covers the other places a code is checked.
  const elevation = await owner.post('acme', '/elevations', { reason: 'checking the bound', code });
  t.is(elevation.status, 429);
  t.truthy(elevation.headers['retry-after']);
  // Once the window has passed the code works again.
  await env.runtime.db.sequelize.query(`UPDATE platform.throttle_counters SET hits = ARRAY(SELECT h - interval '16 minutes' FROM unnest(hits) AS h) WHERE key LIKE 'totp:%'`);
  const after = await env.browser().post('acme', '/sessions', { ...OWNER, totp: code });
  t.is(after.status, 200, after.text);
});

test.serial('DELETE /totps needs the password and turns 2FA off; sign-in then needs no code', async (t) => {
  const missing = await owner.delete('acme', '/totps', {});
  t.deepEqual([missing.status, missing.body], [400, { error: 'password is required', field: 'password' }]);
  const empty = await owner.delete('acme', '/totps', { password: '' });
  t.deepEqual([empty.status, empty.body], [400, { error: 'password is not allowed to be empty', field: 'password' }]);
  const wrong = await owner.delete('acme', '/totps', { password: 'not the password' });
  t.deepEqual([wrong.status, wrong.body], [403, { error: 'Invalid password' }]);
  const off = await owner.delete('acme', '/totps', { password: OWNER.password });
  t.is(off.status, 200);
  t.deepEqual(off.body.data, { enabled: false });
  const [{ left }] = await env.runtime.db.sequelize.query<{ left: number }>('SELECT count(*)::int AS left FROM platform.recovery_codes', { type: QueryTypes.SELECT });
  t.is(left, 0);
  await signIn(env.browser(), 'acme', OWNER.email, OWNER.password);
  const twice = await owner.delete('acme', '/totps', { password: OWNER.password });
  t.deepEqual([twice.status, twice.body], [409, { error: 'Two-factor authentication is not on' }]);
});

test.serial('two-factor settings need a browser session, not an API key', async (t) => {
  const ownerRow = await env.runtime.db.sequelize.query<{ id: string; workspace_id: string }>(`SELECT m.id, m.workspace_id FROM platform.members m JOIN platform.accounts a ON a.id = m.account_id WHERE a.email = :email`, { type: QueryTypes.SELECT, replacements: { email: OWNER.email } });
  const owner = (await env.runtime.identity.callerForMember(ownerRow[0].workspace_id, ownerRow[0].id))!;
  const { secret } = await env.runtime.apiKeys.create(owner.workspaceId, owner, { name: 'two-factor test key', full_access: true, member_id: owner.id });
  const answer = await env.browser().call('acme', 'POST', '/totps', { headers: { authorization: `Bearer ${secret}` } });
  t.deepEqual([answer.status, answer.body], [403, { error: 'An API key cannot change two-factor settings: use a browser session' }]);
});
