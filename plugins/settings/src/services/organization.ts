import type { SettingsContext } from '../kit.js';
import type { Organization, WeekDay } from '../models/index.js';
import { currency, languageTag, timeZone } from './values.js';

/** What `PUT /settings/organization` may set; `logo_key: null` clears the logo. */
export interface OrganizationInput {
  legal_name?: string;
  logo_key?: string | null;
  base_currency?: string;
  timezone?: string;
  locale?: string;
  week_start?: WeekDay;
  fiscal_year_start_month?: number;
}

/** The profile of a workspace nobody set yet: its name, USD, UTC, en-US, Monday, January. */
function defaults(ctx: SettingsContext) {
  return { legal_name: ctx.workspace.name, logo_key: null, base_currency: 'USD', timezone: 'UTC', locale: 'en-US', week_start: 'monday' as WeekDay, fiscal_year_start_month: 1 };
}

/** The profile as answers and the event carry it (`revision` 0 and no dates: never set). */
export function presentOrganization(ctx: SettingsContext, row: Organization | null) {
  const profile = row ?? defaults(ctx);
  return {
    legal_name: profile.legal_name,
    logo_key: profile.logo_key,
    base_currency: profile.base_currency,
    timezone: profile.timezone,
    locale: profile.locale,
    week_start: profile.week_start,
    fiscal_year_start_month: profile.fiscal_year_start_month,
    revision: row?.revision ?? 0,
    updated_at: row?.updated_at ?? null,
  };
}

/** The workspace's profile row, or null while it has the defaults. */
export function readOrganization(ctx: SettingsContext, lock?: 'update'): Promise<Organization | null> {
  return ctx.db.organizations.findOne({ where: { id: ctx.workspace.id }, ...(lock ? { lock } : {}) });
}

/**
 * Sets the given fields of the profile (the rest stay as they are, or at their defaults). When a
 * value changed, the revision grows by one and `organization.updated` carries the whole profile
 * and `changed_fields`; a request changing nothing emits nothing.
 */
export async function updateOrganization(ctx: SettingsContext, input: OrganizationInput) {
  await ctx.lock('organization');
  const row = await readOrganization(ctx, 'update');
  const before = presentOrganization(ctx, row);
  const next = {
    legal_name: input.legal_name ?? before.legal_name,
    logo_key: input.logo_key === undefined ? before.logo_key : input.logo_key || null,
    base_currency: input.base_currency === undefined ? before.base_currency : currency(input.base_currency, 'base_currency'),
    timezone: input.timezone === undefined ? before.timezone : timeZone(input.timezone, 'timezone'),
    locale: input.locale === undefined ? before.locale : languageTag(input.locale, 'locale'),
    week_start: input.week_start ?? before.week_start,
    fiscal_year_start_month: input.fiscal_year_start_month ?? before.fiscal_year_start_month,
  };
  const changed = (Object.keys(next) as Array<keyof typeof next>).filter((key) => next[key] !== before[key]);
  if (changed.length === 0) return before;
  const revision = before.revision + 1;
  if (row) await ctx.db.organizations.update({ ...next, revision, updated_by: ctx.member.id }, { where: { id: row.id } });
  else await ctx.db.organizations.create({ id: ctx.workspace.id, ...next, revision, updated_by: ctx.member.id });
  const profile = presentOrganization(ctx, await readOrganization(ctx));
  const { updated_at: _updatedAt, ...payload } = profile;
  ctx.events.stage('core.settings.organization.updated', { ...payload, changed_fields: changed, updated_by: ctx.member.id });
  return profile;
}
