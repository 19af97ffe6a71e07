import { TooManyRequestsError } from '@wpk/sdk';
import { QueryTypes, type Sequelize } from 'sequelize';

/** A bound: at most `limit` counted attempts per `windowSeconds`. */
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
  /** Failed sign-ins per account (keyed by the email given, so unknown emails behave the same). */
  signIn: { name: 'sign-in', limit: 100, windowSeconds: 3600, message: 'Too many failed sign-ins for this account; try again later' },
  /** Wrong TOTP or recovery codes per account. */
  totp: { name: 'totp', limit: 5, windowSeconds: 900, message: 'Too many wrong two-factor codes; try again later' },
  /** Wrong sign-up verification codes per client address. */
  verification: { name: 'verification', limit: 20, windowSeconds: 3600, message: 'Too many wrong verification codes; try again later' },
  /** Mails (sign-up codes, password-reset links) per email address. */
  mail: { name: 'mail', limit: 5, windowSeconds: 3600, message: 'Too many mails requested for this address; try again later' },
} satisfies Record<string, ThrottleRule>;

/**
 * Counts attempts in the database (shared by every server process) and refuses with 429 and
 * `Retry-After` once a bound is reached. Attempts are written on their own, outside any
 * request transaction, so a failed request still counts.
 */
export class Throttle {
  constructor(private readonly sequelize: Sequelize) {}

  /** Throws TooManyRequestsError when `key` has used up `rule` in the current window. */
  async check(rule: ThrottleRule, key: string): Promise<void> {
    const retryAfter = await this.retryAfter(rule, key);
    if (retryAfter !== null) throw new TooManyRequestsError(rule.message, retryAfter);
  }

  /** Seconds until one more attempt is allowed, or null when one is allowed now. */
  async retryAfter(rule: ThrottleRule, key: string): Promise<number | null> {
    const [row] = await this.sequelize.query<{ count: number; retry_after: number | null }>(
      `SELECT count(*)::int AS count,
              ceil(extract(epoch FROM (
                (SELECT created_at FROM platform.throttle_events WHERE key = :key AND created_at > clock_timestamp() - make_interval(secs => :window)
                 ORDER BY created_at DESC OFFSET :offset LIMIT 1) + make_interval(secs => :window) - clock_timestamp())))::int AS retry_after
         FROM platform.throttle_events
        WHERE key = :key AND created_at > clock_timestamp() - make_interval(secs => :window)`,
      { type: QueryTypes.SELECT, replacements: { key: `${rule.name}:${key}`, window: rule.windowSeconds, offset: rule.limit - 1 } },
    );
    if (row.count < rule.limit) return null;
    return Math.max(1, row.retry_after ?? rule.windowSeconds);
  }

  /** Counts one attempt against `key`. */
  async hit(rule: ThrottleRule, key: string): Promise<void> {
    await this.sequelize.query('INSERT INTO platform.throttle_events (key) VALUES (:key)', { replacements: { key: `${rule.name}:${key}` } });
  }

  /** Forgets the attempts of `key` (after a success, where the rule says so). */
  async clear(rule: ThrottleRule, key: string): Promise<void> {
    await this.sequelize.query('DELETE FROM platform.throttle_events WHERE key = :key', { replacements: { key: `${rule.name}:${key}` } });
  }

  /** Drops attempts older than a day. */
  async prune(): Promise<void> {
    await this.sequelize.query(`DELETE FROM platform.throttle_events WHERE created_at < clock_timestamp() - interval '1 day'`);
  }
}
