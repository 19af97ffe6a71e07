/**
 * The Settings app's records for the route-table guards: the organisation profile set, a
 * location, a working calendar with a holiday, the owner's preferences and a configuration
 * import's plan (of the workspace's own export), so every settings route has a record of each
 * workspace to name.
 */

/** What the Settings app seeds. */
export type SettingsSeedKind = 'settings_location' | 'settings_calendar' | 'settings_holiday' | 'settings_import_plan';

/** Path parameters of the app's routes, by first path segment (`/settings/locations/{location_id}`). */
export const SETTINGS_PARAM_KINDS: Record<string, Record<string, SettingsSeedKind>> = {
  settings: { location_id: 'settings_location', calendar_id: 'settings_calendar', holiday_id: 'settings_holiday', plan_id: 'settings_import_plan' },
};

type Call = (method: string, url: string, body?: unknown) => Promise<any>;

export async function seedSettings(call: Call, marker: string): Promise<Record<SettingsSeedKind, string>> {
  await call('POST', '/applications/settings/installations', {});
  await call('PUT', '/settings/organization', { legal_name: `${marker} organisation`, base_currency: 'EUR' });
  await call('PUT', '/settings/preferences', { language: 'fr' });
  const location = (await call('POST', '/settings/locations', { name: `${marker} location`, timezone: 'Europe/Paris' })).id as string;
  const calendar = (await call('POST', '/settings/calendars', { name: `${marker} calendar` })).id as string;
  const holiday = (await call('POST', `/settings/calendars/${calendar}/holidays`, { date: '2027-05-01', name: `${marker} holiday` })).id as string;
  const plan = (await call('POST', '/settings/imports', { document: await call('GET', '/settings/export') })).id as string;
  return { settings_location: location, settings_calendar: calendar, settings_holiday: holiday, settings_import_plan: plan };
}
