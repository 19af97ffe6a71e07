import got from 'got';
import type { Logger } from 'pino';
import { QueryTypes, type Sequelize } from 'sequelize';
import webpush from 'web-push';
import type { PushMessage } from './push-payload.js';
import type { VapidKeys } from './vapid.js';

/** A browser's push subscription as stored. */
export interface StoredSubscription {
  id: string;
  workspace_id: string;
  member_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** What one delivery to a push service came to. */
export type WebPushOutcome = { status: 'sent'; statusCode: number } | { status: 'expired'; statusCode: number } | { status: 'failed'; statusCode: number | null; error: string };

export interface WebPushOptions {
  sequelize: Sequelize;
  logger: Logger;
  keys: VapidKeys;
  /** The VAPID `sub` claim: a `mailto:` or `https:` contact for the push services. */
  subject: string;
  /** Seconds a push service keeps an undelivered message. */
  ttlSeconds: number;
  /** Allow `http:` endpoints (a loopback push service in tests and development); production endpoints are `https:`. */
  allowHttp: boolean;
}

/**
 * Web push (RFC 8030 with VAPID, RFC 8292, and the aes128gcm payload encryption of RFC 8291):
 * `web-push` signs the VAPID JWT and encrypts the payload with the subscription's keys; the
 * request goes out through `got`. A push service answering 404 or 410 says the subscription is
 * gone: its row is removed.
 */
export class WebPushSender {
  constructor(private readonly options: WebPushOptions) {}

  get publicKey(): string {
    return this.options.keys.publicKey;
  }

  /** Sends the message to every browser of the member; removes the expired subscriptions. */
  async sendToMember(workspaceId: string, memberId: string, message: PushMessage): Promise<WebPushOutcome[]> {
    const subscriptions = await this.options.sequelize.query<StoredSubscription>(
      'SELECT id, workspace_id, member_id, endpoint, p256dh, auth FROM platform.push_subscriptions WHERE workspace_id = :workspaceId AND member_id = :memberId ORDER BY created_at, id',
      { type: QueryTypes.SELECT, replacements: { workspaceId, memberId } },
    );
    const outcomes: WebPushOutcome[] = [];
    for (const subscription of subscriptions) outcomes.push(await this.send(subscription, message));
    return outcomes;
  }

  /** One delivery; an expired subscription is deleted. */
  async send(subscription: StoredSubscription, message: PushMessage): Promise<WebPushOutcome> {
    const { keys, subject, ttlSeconds, logger, sequelize } = this.options;
    let outcome: WebPushOutcome;
    try {
      const details = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, JSON.stringify(message), {
        vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: ttlSeconds,
        contentEncoding: 'aes128gcm',
        urgency: 'normal',
      });
      const response = await got.post(details.endpoint, {
        headers: details.headers as Record<string, string>,
        body: details.body ?? undefined,
        throwHttpErrors: false,
        followRedirect: false,
        retry: { limit: 0 },
        timeout: { request: 10_000 },
      });
      const code = response.statusCode;
      if (code === 404 || code === 410) outcome = { status: 'expired', statusCode: code };
      else if (code >= 200 && code < 300) outcome = { status: 'sent', statusCode: code };
      else outcome = { status: 'failed', statusCode: code, error: String(response.body).slice(0, 200) };
    } catch (error) {
      outcome = { status: 'failed', statusCode: null, error: (error as Error).message };
    }
    if (outcome.status === 'expired') {
      await sequelize.query('DELETE FROM platform.push_subscriptions WHERE workspace_id = :workspaceId AND id = :id', { replacements: { workspaceId: subscription.workspace_id, id: subscription.id } });
      logger.info({ workspace_id: subscription.workspace_id, subscription_id: subscription.id, status: outcome.statusCode }, 'push subscription expired: removed');
    } else if (outcome.status === 'failed') {
      logger.warn({ workspace_id: subscription.workspace_id, subscription_id: subscription.id, status: outcome.statusCode, error: outcome.error }, 'web push failed');
    }
    return outcome;
  }

  /** True when the endpoint may be stored: an absolute `https:` URL (or `http:` when allowed), without credentials. */
  acceptsEndpoint(endpoint: string): boolean {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      return false;
    }
    if (url.username || url.password) return false;
    return url.protocol === 'https:' || (this.options.allowHttp && url.protocol === 'http:');
  }
}
