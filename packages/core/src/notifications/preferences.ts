import { QueryTypes, type Sequelize } from 'sequelize';
import { DEFAULT_PREFERENCES, NOTIFICATION_CHANNELS, type ChannelPreferences, type NotificationChannel } from './channels.js';

/** One channel's preferences as the API answers them. */
export interface ChannelPreferencesView extends ChannelPreferences {
  channel: NotificationChannel;
  /** False until the member changed this channel (the defaults apply). */
  customized: boolean;
}

interface Row {
  member_id: string;
  channel: NotificationChannel;
  enabled: boolean;
  toast: boolean;
  push: boolean;
  sound: string;
}

/** A member's notification preferences per channel; a channel never changed reads as the defaults. */
export class PreferenceService {
  constructor(private readonly sequelize: Sequelize) {}

  /** Every channel of the member, in the channel list's order. */
  async list(workspaceId: string, memberId: string): Promise<ChannelPreferencesView[]> {
    const rows = await this.sequelize.query<Row>('SELECT member_id, channel, enabled, toast, push, sound FROM platform.notification_preferences WHERE workspace_id = :workspaceId AND member_id = :memberId', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId, memberId },
    });
    return NOTIFICATION_CHANNELS.map((channel) => {
      const row = rows.find((candidate) => candidate.channel === channel);
      return row ? { channel, enabled: row.enabled, toast: row.toast, push: row.push, sound: row.sound, customized: true } : { channel, ...DEFAULT_PREFERENCES, customized: false };
    });
  }

  /** Changes the given fields of one channel, keeping the others; answers the channel's preferences. */
  async patch(workspaceId: string, memberId: string, channel: NotificationChannel, patch: Partial<ChannelPreferences>): Promise<ChannelPreferencesView> {
    const merged = { ...DEFAULT_PREFERENCES, ...patch };
    const [row] = await this.sequelize.query<Row>(
      `INSERT INTO platform.notification_preferences AS p (workspace_id, member_id, channel, enabled, toast, push, sound)
       VALUES (:workspaceId, :memberId, :channel, :enabled, :toast, :push, :sound)
       ON CONFLICT (workspace_id, member_id, channel) DO UPDATE SET
         enabled = CASE WHEN :setEnabled THEN EXCLUDED.enabled ELSE p.enabled END,
         toast = CASE WHEN :setToast THEN EXCLUDED.toast ELSE p.toast END,
         push = CASE WHEN :setPush THEN EXCLUDED.push ELSE p.push END,
         sound = CASE WHEN :setSound THEN EXCLUDED.sound ELSE p.sound END,
         updated_at = now()
       RETURNING member_id, channel, enabled, toast, push, sound`,
      {
        type: QueryTypes.SELECT,
        replacements: {
          workspaceId,
          memberId,
          channel,
          ...merged,
          setEnabled: patch.enabled !== undefined,
          setToast: patch.toast !== undefined,
          setPush: patch.push !== undefined,
          setSound: patch.sound !== undefined,
        },
      },
    );
    return { channel, enabled: row.enabled, toast: row.toast, push: row.push, sound: row.sound, customized: true };
  }

  /** The preferences of several members on one channel (defaults where unchanged). */
  async forChannel(workspaceId: string, memberIds: readonly string[], channel: NotificationChannel): Promise<Map<string, ChannelPreferences>> {
    const result = new Map<string, ChannelPreferences>(memberIds.map((id) => [id, { ...DEFAULT_PREFERENCES }]));
    if (memberIds.length === 0) return result;
    const rows = await this.sequelize.query<Row>(
      'SELECT member_id, channel, enabled, toast, push, sound FROM platform.notification_preferences WHERE workspace_id = :workspaceId AND channel = :channel AND member_id IN (:memberIds)',
      { type: QueryTypes.SELECT, replacements: { workspaceId, channel, memberIds: [...memberIds] } },
    );
    for (const row of rows) result.set(row.member_id, { enabled: row.enabled, toast: row.toast, push: row.push, sound: row.sound });
    return result;
  }
}
