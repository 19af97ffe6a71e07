import type { SettingsContext } from '../kit.js';
import type { DateFormat, NotificationChannel, Preferences } from '../models/index.js';
import { languageTag, timeZone } from './values.js';

/** What `PUT /settings/preferences` may set; `timezone: null` follows the organisation's. */
export interface PreferencesInput {
  language?: string;
  timezone?: string | null;
  date_format?: DateFormat;
  notification_channels?: NotificationChannel[];
}

/** A member's preferences as answers and the event carry them (the defaults until they save). */
export function presentPreferences(memberId: string, row: Preferences | null) {
  return {
    member_id: memberId,
    language: row?.language ?? 'en',
    timezone: row?.timezone ?? null,
    date_format: row?.date_format ?? 'YYYY-MM-DD',
    notification_channels: row?.notification_channels ?? ['in_app', 'email'],
    updated_at: row?.updated_at ?? null,
  };
}

/** The calling member's preferences. */
export async function readPreferences(ctx: SettingsContext) {
  return presentPreferences(ctx.member.id, await ctx.db.preferences.findOne({ where: { member_id: ctx.member.id } }));
}

/**
 * Sets the given preferences of the calling member. When a value changed, `preferences.updated`
 * carries them all and `changed_fields`; a request changing nothing emits nothing.
 */
export async function updatePreferences(ctx: SettingsContext, input: PreferencesInput) {
  const row = await ctx.db.preferences.findOne({ where: { member_id: ctx.member.id }, lock: 'update' });
  const before = presentPreferences(ctx.member.id, row);
  const next = {
    language: input.language === undefined ? before.language : languageTag(input.language, 'language'),
    timezone: input.timezone === undefined ? before.timezone : input.timezone === null ? null : timeZone(input.timezone, 'timezone'),
    date_format: input.date_format ?? before.date_format,
    notification_channels: input.notification_channels === undefined ? before.notification_channels : [...new Set(input.notification_channels)],
  };
  const changed = (Object.keys(next) as Array<keyof typeof next>).filter((key) => JSON.stringify(next[key]) !== JSON.stringify(before[key]));
  if (changed.length === 0) return before;
  const saved = await ctx.db.preferences.upsert({ member_id: ctx.member.id, ...next }, { conflictFields: ['member_id'] });
  const profile = presentPreferences(ctx.member.id, saved);
  ctx.events.stage('core.settings.preferences.updated', { member_id: ctx.member.id, member_mrn: ctx.member.mrn, language: next.language, timezone: next.timezone, date_format: next.date_format, notification_channels: next.notification_channels, changed_fields: changed });
  return profile;
}
