import { QueryTypes, type Sequelize } from 'sequelize';
import type { PhonePlatform } from './phone-push.js';

/** Browsers (and phones) one member keeps at most; registering one more drops the oldest. */
export const MAX_PUSH_TARGETS_PER_MEMBER = 20;

/** A browser push subscription as the API answers it. */
export interface PushSubscriptionView {
  id: string;
  member_id: string;
  endpoint: string;
  created_at: string;
  updated_at: string;
}

/** A phone as the API answers it (the token is never echoed whole: it is a credential of the device). */
export interface PushDeviceView {
  id: string;
  member_id: string;
  platform: PhonePlatform;
  token_suffix: string;
  created_at: string;
  updated_at: string;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** Where a member's browsers and phones are registered for push. */
export class PushRegistrations {
  constructor(private readonly sequelize: Sequelize) {}

  /** Stores a browser's subscription; the same endpoint again is updated (keys, member), not duplicated. */
  async subscribe(workspaceId: string, memberId: string, input: { endpoint: string; p256dh: string; auth: string }): Promise<PushSubscriptionView> {
    const [row] = await this.sequelize.query<{ id: string; member_id: string; endpoint: string; created_at: Date; updated_at: Date }>(
      `INSERT INTO platform.push_subscriptions (workspace_id, member_id, endpoint, p256dh, auth)
       VALUES (:workspaceId, :memberId, :endpoint, :p256dh, :auth)
       ON CONFLICT (workspace_id, endpoint) DO UPDATE SET member_id = EXCLUDED.member_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, updated_at = clock_timestamp()
       RETURNING id, member_id, endpoint, created_at, updated_at`,
      { type: QueryTypes.SELECT, replacements: { workspaceId, memberId, ...input } },
    );
    await this.trim('push_subscriptions', workspaceId, memberId);
    return { id: row.id, member_id: row.member_id, endpoint: row.endpoint, created_at: iso(row.created_at), updated_at: iso(row.updated_at) };
  }

  /** Stores a phone; the same token again is updated (platform, member), not duplicated. */
  async register(workspaceId: string, memberId: string, input: { token: string; platform: PhonePlatform }): Promise<PushDeviceView> {
    const [row] = await this.sequelize.query<{ id: string; member_id: string; platform: PhonePlatform; token: string; created_at: Date; updated_at: Date }>(
      `INSERT INTO platform.push_devices (workspace_id, member_id, token, token_sha256, platform)
       VALUES (:workspaceId, :memberId, :token, encode(sha256(convert_to(:token, 'UTF8')), 'hex'), :platform)
       ON CONFLICT (workspace_id, token_sha256) DO UPDATE SET member_id = EXCLUDED.member_id, platform = EXCLUDED.platform, updated_at = clock_timestamp()
       RETURNING id, member_id, platform, token, created_at, updated_at`,
      { type: QueryTypes.SELECT, replacements: { workspaceId, memberId, ...input } },
    );
    await this.trim('push_devices', workspaceId, memberId);
    return { id: row.id, member_id: row.member_id, platform: row.platform, token_suffix: row.token.slice(-8), created_at: iso(row.created_at), updated_at: iso(row.updated_at) };
  }

  /** Keeps the member's newest MAX_PUSH_TARGETS_PER_MEMBER rows of the table. */
  private async trim(table: 'push_subscriptions' | 'push_devices', workspaceId: string, memberId: string): Promise<void> {
    await this.sequelize.query(
      `DELETE FROM platform.${table} WHERE workspace_id = :workspaceId AND member_id = :memberId AND id NOT IN (
         SELECT id FROM platform.${table} WHERE workspace_id = :workspaceId AND member_id = :memberId ORDER BY updated_at DESC, id DESC LIMIT :keep)`,
      { replacements: { workspaceId, memberId, keep: MAX_PUSH_TARGETS_PER_MEMBER } },
    );
  }
}
