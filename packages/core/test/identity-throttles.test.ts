import test from 'ava';
import { QueryTypes } from 'sequelize';
import { platformMigrations } from '../src/db/index.js';
import { Throttle, THROTTLES } from '../src/identity/index.js';
import { LOCKOUT_MAIL } from '../src/identity/services/sessions.js';
import { independentTotp } from './helpers/identity-totp.js';
import { startIdentityRuntime, type IdentityTestRuntime } from './helpers/identity-runtime.js';
import { apiHeaders } from './helpers/runtime.js';

// Throttles count atomically: of many concurrent attempts on one key exactly as many as the
// bound allows are evaluated, the others are refused (429) before anything is checked. The
// requests are fired all at once through server.inject, so each request's throttle query is in
// flight while the others' password or code checks are: on old main (check, evaluate, then
// count) every one of them passed the check. The hashing limiter gets room for the whole burst
// here (identity-hashing covers it).
let env: IdentityTestRuntime;

const OWNER = { email: 'olga@acme.test', password: 'olga-owner-password' };

test.before(async () => {
  env = await startIdentityRuntime({ scryptLogN: 10, passwordHashing: { concurrency: 4, queue: 1000, perClient: 1000 } });
  await env.runtime.identity.createWorkspaceWithOwner({ subdomain: 'acme', name: 'Acme', ownerEmail: OWNER.email, ownerPassword: OWNER.password });
});

test.after.always(async () => {
  await env?.close();
});

const inject = (method: string, url: string, payload: object, cookie?: string) =>
  env.runtime.server.inject({ method, url, headers: apiHeaders('acme', { 'content-type': 'application/json', ...(cookie ? { cookie, 'sec-fetch-site': 'same-origin' } : {}) }), payload });

const hitsOf = async (key: string): Promise<number> => {
  const [row] = await env.runtime.db.sequelize.query<{ hits: number }>('SELECT coalesce(sum(cardinality(hits)), 0)::int AS hits FROM platform.throttle_counters WHERE key = :key', { type: QueryTypes.SELECT, replacements: { key } });
  return row.hits;
};

/** Tallies answers by `status body`, and the Retry-After values of the 429s. */
function tally(answers: Array<{ statusCode: number; payload: string; headers: Record<string, unknown> }>) {
  const counts: Record<string, number> = {};
  const retryAfter: number[] = [];
  for (const answer of answers) {
    const key = `${answer.statusCode} ${answer.payload}`;
    counts[key] = (counts[key] ?? 0) + 1;
    if (answer.statusCode === 429) retryAfter.push(Number(answer.headers['retry-after']));
  }
  return { counts, retryAfter };
}

test.serial('250 concurrent wrong passwords for one email: exactly 100 are checked, 150 get 429 with Retry-After', async (t) => {
  const hasher = env.runtime.identity.context.passwords;
  const verify = hasher.verify.bind(hasher);
  let checked = 0;
  hasher.verify = (...args: Parameters<typeof verify>) => {
    checked += 1;
    return verify(...args);
  };
  try {
    const answers = await Promise.all(Array.from({ length: 250 }, () => inject('POST', '/sessions', { email: OWNER.email, password: 'not the password' })));
    const { counts, retryAfter } = tally(answers);
    t.deepEqual(counts, {
      '401 {"error":"Invalid email or password"}': 100,
      '429 {"error":"Too many failed sign-ins for this account; try again later, or sign in from a browser you have signed in with before"}': 150,
    });
    t.is(checked, 100);
    t.is(retryAfter.length, 150);
    t.true(retryAfter.every((seconds) => seconds > 3500 && seconds <= 3600), retryAfter.join(','));
    t.is(await hitsOf(`sign-in:${OWNER.email}`), 100);
    // While throttled, even the right password is refused, unchecked (from a browser that is not a known device).
    const right = await inject('POST', '/sessions', OWNER);
    t.deepEqual([right.statusCode, JSON.parse(right.payload)], [429, { error: THROTTLES.signIn.message }]);
    t.is(checked, 100);
    // The owner was told once, whatever the burst (identity-lockout covers the mail).
    await env.smtp.waitFor(OWNER.email, (mail) => mail.subject === LOCKOUT_MAIL.subject);
    t.is(env.smtp.mails.filter((mail) => mail.subject === LOCKOUT_MAIL.subject).length, 1);
    await env.runtime.identity.context.throttle.clear(THROTTLES.lockoutMail, (await env.runtime.identity.context.models.Account.findOne({ where: { email: OWNER.email } }))!.id);
  } finally {
    hasher.verify = verify;
  }
});

test.serial('a successful attempt is forgiven: it does not count against the bound', async (t) => {
  await env.runtime.db.sequelize.query(`DELETE FROM platform.throttle_counters WHERE key LIKE 'sign-in:%'`);
  const wrong = await inject('POST', '/sessions', { email: OWNER.email, password: 'not the password' });
  t.is(wrong.statusCode, 401);
  const answers = await Promise.all(Array.from({ length: 5 }, () => inject('POST', '/sessions', OWNER)));
  t.deepEqual(answers.map((answer) => answer.statusCode), [200, 200, 200, 200, 200]);
  t.is(await hitsOf(`sign-in:${OWNER.email}`), 1);
  await env.runtime.db.sequelize.query(`DELETE FROM platform.throttle_counters WHERE key LIKE 'sign-in:%'`);
});

test.serial('a configured clock is read once an attempt: the count and a refusal\'s wait are judged at the same instant', async (t) => {
  const instants = [new Date('2030-01-01T00:00:00.000Z'), new Date('2030-01-01T00:00:10.000Z')];
  let reads = 0;
  const throttle = new Throttle(env.runtime.db.sequelize, () => instants[Math.min(reads++, instants.length - 1)]);
  const rule = { name: 'one-clock', limit: 1, windowSeconds: 60, message: 'One a minute' };
  const counted = await throttle.count(rule, 'k');
  t.is(counted.live, 1);
  t.is(reads, 1);
  const refused = await throttle.count(rule, 'k').catch((error: unknown) => error);
  t.like(refused, { status: 429, message: 'One a minute', headers: { 'Retry-After': '50' } });
  t.is(reads, 2);
  await throttle.clear(rule, 'k');
});

test.serial('150 concurrent wrong TOTP codes on one session: exactly 5 are checked, 145 get 429 with Retry-After', async (t) => {
  const signedIn = await inject('POST', '/sessions', OWNER);
  t.is(signedIn.statusCode, 200, signedIn.payload);
  const cookie = String((signedIn.headers['set-cookie'] as string[])[0]).split(';')[0];
  const enrollment = await inject('POST', '/totps', {}, cookie);
  t.is(enrollment.statusCode, 200, enrollment.payload);
  const secret = JSON.parse(enrollment.payload).data.secret as string;
  const enabled = await inject('PUT', '/totps', { code: independentTotp(secret) }, cookie);
  t.is(enabled.statusCode, 200, enabled.payload);
  // A well-formed code that no step near now produces.
  const near = new Set(Array.from({ length: 7 }, (_, index) => independentTotp(secret, Date.now() + (index - 3) * 30_000)));
  const wrong = ['000000', '111111', '222222', '333333'].find((code) => !near.has(code))!;

  const secrets = env.runtime.identity.context.secrets;
  const open = secrets.open.bind(secrets);
  let checked = 0;
  secrets.open = (...args: Parameters<typeof open>) => {
    checked += 1;
    return open(...args);
  };
  try {
    const answers = await Promise.all(Array.from({ length: 150 }, () => inject('POST', '/elevations', { reason: 'guessing codes', code: wrong }, cookie)));
    const { counts, retryAfter } = tally(answers);
    t.deepEqual(counts, {
      '403 {"error":"Invalid TOTP or recovery code"}': 5,
      '429 {"error":"Too many wrong two-factor codes; try again later"}': 145,
    });
    t.is(checked, 5);
    t.true(retryAfter.every((seconds) => seconds > 800 && seconds <= 900), retryAfter.join(','));
    const [account] = await env.runtime.db.sequelize.query<{ id: string }>('SELECT id FROM platform.accounts WHERE email = :email', { type: QueryTypes.SELECT, replacements: { email: OWNER.email } });
    t.is(await hitsOf(`totp:${account.id}`), 5);
  } finally {
    secrets.open = open;
  }
});

test.serial('the migration keeps the live attempts counted before it and reverts to one row per attempt', async (t) => {
  const sequelize = env.runtime.db.sequelize;
  const context = { sequelize, queryInterface: sequelize.getQueryInterface(), schema: 'platform' };
  const migration = platformMigrations.migrations.find((candidate) => candidate.name === '0101-throttle-counters')!;
  const live = 'SELECT key, cardinality(hits) AS hits FROM platform.throttle_counters WHERE cardinality(hits) > 0 ORDER BY key';
  const before = await sequelize.query<{ key: string; hits: number }>(live, { type: QueryTypes.SELECT });
  t.deepEqual(before.map((row) => row.hits), [5]);
  await migration.down!(context);
  const rows = await sequelize.query<{ key: string; hits: number }>('SELECT key, count(*)::int AS hits FROM platform.throttle_events GROUP BY key ORDER BY key', { type: QueryTypes.SELECT });
  t.deepEqual(rows, before);
  await migration.up(context);
  t.deepEqual(await sequelize.query(live, { type: QueryTypes.SELECT }), before);
});
