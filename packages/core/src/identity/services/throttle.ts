import { systemClock } from '../../clock.js';
import { TooManyRequestsError } from '@wpk/sdk';
import { QueryTypes, type Sequelize } from 'sequelize';
import { hotRows, statement } from '../../db/index.js';

/** A bound: at most `limit` counted attempts per `windowSeconds` (a sliding window of at most a day). */
export interface ThrottleRule {
  /** Prefix of the key, naming what is counted (`sign-in`, `totp`, ...). */
  name: string;
  limit: number;
  windowSeconds: number;
  /** The 429 message. */
  message: string;
}

/** The bounds identity enforces. */
export const THROTTLES = {
  /**
   * Failed sign-ins per account from browsers that are not a known device of it (keyed by the
   * email given, so unknown emails behave the same). Reaching it locks the account for those
   * attempts only: a known device still signs in (docs/decisions/0195-known-device-cookies.md).
   */
  signIn: { name: 'sign-in', limit: 100, windowSeconds: 3600, message: 'Too many failed sign-ins for this account; try again later, or sign in from a browser you have signed in with before' },
  /** Failed sign-ins per known-device cookie (keyed by account and the cookie's nonce): a stolen cookie guesses little. */
  deviceSignIn: { name: 'device-sign-in', limit: 10, windowSeconds: 3600, message: 'Too many failed sign-ins from this browser; try again later' },
  /** The mail telling an account's owner that its lockout started: at most one per account per day. */
  lockoutMail: { name: 'lockout-mail', limit: 1, windowSeconds: 86_400, message: 'Lockout mail already sent' },
  /** Wrong TOTP or recovery codes per account. */
  totp: { name: 'totp', limit: 5, windowSeconds: 900, message: 'Too many wrong two-factor codes; try again later' },
  /** Wrong sign-up verification codes per client address. */
  verification: { name: 'verification', limit: 20, windowSeconds: 3600, message: 'Too many wrong verification codes; try again later' },
  /** Sign-up mails of the whole server (every address together); the limit is `SIGNUP_MAILS_PER_HOUR`. */
  signupMails: { name: 'signup-mails', limit: 100, windowSeconds: 3600, message: 'Too many sign-ups on this server in the last hour; try again later' },
  /** Mails (sign-up codes, password-reset links) per email address. */
  mail: { name: 'mail', limit: 5, windowSeconds: 3600, message: 'Too many mails requested for this address; try again later' },
} satisfies Record<string, ThrottleRule>;

/** An attempt that was counted: `forgive` it when it turns out to be a success the rule does not count. */
export interface CountedAttempt {
  readonly rule: ThrottleRule;
  readonly key: string;
  /** The counted instant, as PostgreSQL prints it (microseconds kept, so it matches exactly). */
  readonly at: string;
  /** Attempts of `key` live in the window with this one counted (this one included). */
  readonly live: number;
}

/** Either a counted attempt, or the seconds until one more is allowed. */
type Outcome = { attempt: CountedAttempt; retryAfter?: never } | { attempt?: never; retryAfter: number };

/** "Now" in TAKE: the configured clock ($4), else the database's. */
const TAKE_NOW = 'coalesce($4::timestamptz, clock_timestamp())';

/**
 * Counts one attempt ($1 the key, $2 the window in seconds, $3 the limit). The WHERE of DO UPDATE
 * is checked on the row's latest version, under its lock: concurrent attempts on one key queue on
 * that lock and each sees the attempts counted before it.
 */
const TAKE = statement(
  `INSERT INTO platform.throttle_counters AS t (key, hits, updated_at) VALUES ($1, ARRAY[${TAKE_NOW}], ${TAKE_NOW})
   ON CONFLICT (key) DO UPDATE
      SET hits = ARRAY(SELECT h FROM unnest(t.hits) AS h WHERE h > ${TAKE_NOW} - make_interval(secs => $2::int) ORDER BY h) || ${TAKE_NOW},
          updated_at = ${TAKE_NOW}
    WHERE (SELECT count(*) FROM unnest(t.hits) AS h WHERE h > ${TAKE_NOW} - make_interval(secs => $2::int)) < $3::int
   RETURNING CAST(t.hits[cardinality(t.hits)] AS text) AS at, cardinality(t.hits) AS live`,
);

/**
 * Counts attempts in the database (shared by every server process) and refuses with 429 and
 * `Retry-After` once a bound is reached. Each key has one row holding the instants of its
 * counted attempts; counting is one `INSERT … ON CONFLICT DO UPDATE … WHERE live < limit`, so
 * the row lock makes check-and-count atomic: of any number of concurrent attempts exactly as
 * many as the bound has room for are counted, and only those may be evaluated. An attempt is
 * counted before it is evaluated; the caller forgives it when it succeeds and the rule counts
 * failures only. Counting runs on its own, outside any request transaction, so a failed
 * request still counts.
 */
export class Throttle {
  /**
   * `clock`: judge windows by this clock instead of the database's `clock_timestamp()` (a test
   * passes a controllable one as `RuntimeSeams.clock`). The system clock keeps the database's,
   * so every process shares one time source.
   */
  constructor(
    private readonly sequelize: Sequelize,
    clock?: () => Date,
  ) {
    this.clock = clock === systemClock ? undefined : clock;
  }

  private readonly clock: (() => Date) | undefined;

  /** The SQL for "now" and its replacement: the database's clock, or the configured one. */
  private now(): { sql: string; value: { now?: string } } {
    return this.clock ? { sql: 'CAST(:now AS timestamptz)', value: { now: this.clock().toISOString() } } : { sql: 'clock_timestamp()', value: {} };
  }

  /** Counts one attempt against `key`; throws TooManyRequestsError (counting nothing) when the bound is used up. */
  async count(rule: ThrottleRule, key: string): Promise<CountedAttempt> {
    const outcome = await this.take(rule, key);
    if (outcome.retryAfter !== undefined) throw new TooManyRequestsError(rule.message, outcome.retryAfter);
    return outcome.attempt;
  }

  /**
   * One attempt of a rule that counts failures: counts it (429 when the bound is used up, with
   * nothing evaluated), then evaluates it. `false` is a failure and stays counted; any other
   * result is a success and is forgiven, and so is a refusal of the hashing limiter
   * (TooManyRequestsError: nothing was evaluated). Any other error leaves the attempt counted.
   */
  async attempt<T>(rule: ThrottleRule, key: string, evaluate: () => Promise<T | false>): Promise<T | false> {
    const counted = await this.count(rule, key);
    let result: T | false;
    try {
      result = await evaluate();
    } catch (error) {
      if (error instanceof TooManyRequestsError) await this.forgive(counted);
      throw error;
    }
    if (result !== false) await this.forgive(counted);
    return result;
  }

  /** Like `count`, but answers null instead of throwing when the bound is used up (silent bounds). */
  async tryCount(rule: ThrottleRule, key: string): Promise<CountedAttempt | null> {
    return (await this.take(rule, key)).attempt ?? null;
  }

  /** Takes back a counted attempt (a success the rule does not count, or an attempt never evaluated). */
  async forgive(attempt: CountedAttempt): Promise<void> {
    await this.sequelize.query(
      `UPDATE platform.throttle_counters
          SET hits = hits[1 : array_position(hits, CAST(:at AS timestamptz)) - 1] || hits[array_position(hits, CAST(:at AS timestamptz)) + 1 : cardinality(hits)]
        WHERE key = :key AND array_position(hits, CAST(:at AS timestamptz)) IS NOT NULL`,
      { replacements: { key: `${attempt.rule.name}:${attempt.key}`, at: attempt.at } },
    );
  }

  /** Counts `key` unless the bound is used up (one atomic statement), else computes the wait. */
  private async take(rule: ThrottleRule, key: string): Promise<Outcome> {
    // One reading of the clock judges both the count and, when refused, the wait.
    const now = this.now();
    const counterKey = `${rule.name}:${key}`;
    // Prepared (every rate-limited request runs it): "now" is a parameter, null for the database's clock.
    const [counted] = await hotRows<{ at: string; live: number }>(this.sequelize, TAKE, [counterKey, rule.windowSeconds, rule.limit, now.value.now ?? null]);
    if (counted) return { attempt: { rule, key, at: counted.at, live: Number(counted.live) } };
    // Refused: one more is allowed once the live attempts drop below the limit, that is when the
    // limit-th newest leaves the window.
    const [row] = await this.sequelize.query<{ retry_after: number | null }>(
      `SELECT ceil(extract(epoch FROM (
                (SELECT h FROM unnest(t.hits) AS h WHERE h > ${now.sql} - make_interval(secs => :window) ORDER BY h DESC OFFSET :offset LIMIT 1)
                + make_interval(secs => :window) - ${now.sql})))::int AS retry_after
         FROM platform.throttle_counters t WHERE t.key = :key`,
      { type: QueryTypes.SELECT, replacements: { key: counterKey, window: rule.windowSeconds, offset: rule.limit - 1, ...now.value } },
    );
    return { retryAfter: Math.max(1, row?.retry_after ?? 1) };
  }

  /** Forgets every attempt of `key`. */
  async clear(rule: ThrottleRule, key: string): Promise<void> {
    await this.sequelize.query('DELETE FROM platform.throttle_counters WHERE key = :key', { replacements: { key: `${rule.name}:${key}` } });
  }

  /** Drops keys with no attempt for a day (every window is at most a day, so none is live). */
  async prune(): Promise<void> {
    const now = this.now();
    await this.sequelize.query(`DELETE FROM platform.throttle_counters WHERE updated_at < ${now.sql} - interval '1 day'`, { replacements: now.value });
  }
}
