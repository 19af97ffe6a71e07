import test from 'ava';
import { checkMatrixRows, ok, startWorld, type World } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };
import app from '../src/index.js';

/** An id no record has. */
const UNKNOWN = '00000000-0000-4000-8000-000000000abc';
let world: World;

test.before(async () => {
  world = await startWorld({ app, subdomain: 'settings' });
});
test.after.always(() => world?.close());

test('every table can be distributed by workspace', async (t) => {
  t.deepEqual(await world.platform.distributionProblems(), []);
});

/** Row count of one of the app's tables in the test workspace. */
const rows = async (table: string) => (await world.platform.query<{ n: number }>(`SELECT count(*)::int AS n FROM app_settings.${table} WHERE workspace_id = :id`, { id: world.workspace.id }))[0].n;

/** Sends every body to the route and checks each is the 400 given, then that nothing was written or emitted. */
async function refusals(t: import('ava').ExecutionContext, method: string, path: string, table: string, cases: Array<[unknown, string, string?]>) {
  world.takeEvents();
  const before = await rows(table);
  for (const [body, error, field] of cases) {
    const reply = await world.owner.request(method, path, body);
    t.is(reply.status, 400, JSON.stringify(body));
    t.deepEqual(reply.body, field === undefined ? { error } : { error, field }, JSON.stringify(body));
  }
  t.is(await rows(table), before);
  t.deepEqual(world.takeEvents(), []);
}

test.serial('GET /settings/organization of a workspace never set answers the defaults; PUT sets the given fields and emits organization.updated once with the whole profile', async (t) => {
  world.takeEvents();
  const defaults = await world.owner.request('GET', '/settings/organization');
  t.is(defaults.status, 200);
  t.deepEqual(defaults.body, {
    data: { legal_name: 'settings workspace', logo_key: null, base_currency: 'USD', timezone: 'UTC', locale: 'en-US', week_start: 'monday', fiscal_year_start_month: 1, revision: 0, updated_at: null },
    links: { self: '/settings/organization' },
  });
  t.is(await rows('organizations'), 0);

  const put = await world.owner.request('PUT', '/settings/organization', { legal_name: ' Acme GmbH ', base_currency: 'eur', timezone: 'Europe/Berlin', locale: 'de-de', fiscal_year_start_month: 4 });
  t.is(put.status, 200);
  const profile = put.body.data;
  t.like(profile, { legal_name: 'Acme GmbH', logo_key: null, base_currency: 'EUR', timezone: 'Europe/Berlin', locale: 'de-DE', week_start: 'monday', fiscal_year_start_month: 4, revision: 1 });
  t.deepEqual(world.takeEvents(), [
    {
      action: 'core.settings.organization.updated',
      payload: { legal_name: 'Acme GmbH', base_currency: 'EUR', timezone: 'Europe/Berlin', locale: 'de-DE', week_start: 'monday', fiscal_year_start_month: 4, revision: 1, changed_fields: ['legal_name', 'base_currency', 'timezone', 'locale', 'fiscal_year_start_month'], updated_by: world.owner.id },
    },
  ]);
  t.deepEqual((await world.owner.request('GET', '/settings/organization')).body.data, profile);

  const logo = await ok(world.owner.request('PUT', '/settings/organization', { logo_key: 'logos/acme.png', week_start: 'sunday' }));
  t.like(logo, { logo_key: 'logos/acme.png', week_start: 'sunday', base_currency: 'EUR', revision: 2 });
  t.deepEqual(world.takeEvents(), [
    {
      action: 'core.settings.organization.updated',
      payload: { legal_name: 'Acme GmbH', logo_key: 'logos/acme.png', base_currency: 'EUR', timezone: 'Europe/Berlin', locale: 'de-DE', week_start: 'sunday', fiscal_year_start_month: 4, revision: 2, changed_fields: ['logo_key', 'week_start'], updated_by: world.owner.id },
    },
  ]);
  const same = await ok(world.owner.request('PUT', '/settings/organization', { base_currency: 'EUR', week_start: 'sunday' }));
  t.is(same.revision, 2);
  t.deepEqual(world.takeEvents(), []);
  t.is(await rows('organizations'), 1);
});

test.serial('bad organisation input is a 400 naming the field, changes nothing and emits nothing', async (t) => {
  const before = await ok(world.owner.request('GET', '/settings/organization'));
  await refusals(t, 'PUT', '/settings/organization', 'organizations', [
    [{ base_currency: 'EURO' }, 'base_currency length must be 3 characters long', 'base_currency'],
    [{ base_currency: 'XYZ' }, 'base_currency: XYZ is not an ISO 4217 currency code (such as EUR or USD)', 'base_currency'],
    [{ timezone: 'Mars/Olympus' }, 'timezone: Mars/Olympus is not an IANA time zone (such as Europe/Paris or UTC)', 'timezone'],
    [{ locale: 'not a tag' }, 'locale: not a tag is not a BCP 47 language tag (such as en-GB or fr)', 'locale'],
    [{ week_start: 'someday' }, 'week_start must be one of [monday, tuesday, wednesday, thursday, friday, saturday, sunday]', 'week_start'],
    [{ fiscal_year_start_month: 13 }, 'fiscal_year_start_month must be less than or equal to 12', 'fiscal_year_start_month'],
    [{ legal_name: '' }, 'legal_name is not allowed to be empty', 'legal_name'],
    [{ base_currency: 'GBP', timezone: 'Nowhere/Land' }, 'timezone: Nowhere/Land is not an IANA time zone (such as Europe/Paris or UTC)', 'timezone'],
  ]);
  t.deepEqual(await ok(world.owner.request('GET', '/settings/organization')), before);
});

test.serial('locations: create, list by name, rename, delete; each write emits its one event with {location_id, mrn, name, timezone, address}', async (t) => {
  world.takeEvents();
  const created = await world.owner.request('POST', '/settings/locations', { name: 'Berlin office', timezone: 'Europe/Berlin', address: { street: 'Unter den Linden 1', city: 'Berlin', country: 'DE', region: ' ' } });
  t.is(created.status, 200);
  const berlin = created.body.data;
  t.deepEqual(created.body.links, { self: `/settings/locations/${berlin.id}` });
  t.like(berlin, { mrn: `mrn:settings:location:${berlin.id}`, name: 'Berlin office', timezone: 'Europe/Berlin', address: { street: 'Unter den Linden 1', city: 'Berlin', region: null, postal_code: null, country: 'DE' } });
  const address = { street: 'Unter den Linden 1', city: 'Berlin', country: 'DE' };
  t.deepEqual(world.takeEvents(), [{ action: 'core.settings.location.created', payload: { location_id: berlin.id, mrn: berlin.mrn, name: 'Berlin office', timezone: 'Europe/Berlin', address, revision: 1, created_by: world.owner.id } }]);
  const austin = await ok(world.owner.request('POST', '/settings/locations', { name: 'Austin', timezone: 'America/Chicago' }));
  world.takeEvents();

  const list = await world.owner.request('GET', '/settings/locations');
  t.deepEqual(list.body.data.map((location: { name: string }) => location.name), ['Austin', 'Berlin office']);
  t.deepEqual(list.body.pagination, { page: 1, per_page: 25, total: 2, pages: 1 });
  t.deepEqual((await world.owner.request('GET', '/settings/locations?q=berl')).body.data, [berlin]);

  const renamed = await ok(world.owner.request('PATCH', `/settings/locations/${berlin.id}`, { name: 'Berlin HQ' }));
  t.is(renamed.name, 'Berlin HQ');
  t.deepEqual(world.takeEvents(), [{ action: 'core.settings.location.updated', payload: { location_id: berlin.id, mrn: berlin.mrn, name: 'Berlin HQ', timezone: 'Europe/Berlin', address, revision: 2, changed_fields: ['name'], updated_by: world.owner.id } }]);
  t.is((await world.owner.request('PATCH', `/settings/locations/${berlin.id}`, { name: 'Berlin HQ', timezone: 'Europe/Berlin' })).status, 200);
  t.deepEqual(world.takeEvents(), [], 'a change of nothing emits nothing');

  const gone = await world.owner.request('DELETE', `/settings/locations/${austin.id}`);
  t.deepEqual(gone.body, { data: { id: austin.id, mrn: austin.mrn, deleted: true }, links: { self: `/settings/locations/${austin.id}` } });
  t.deepEqual(world.takeEvents(), [{ action: 'core.settings.location.deleted', payload: { location_id: austin.id, mrn: austin.mrn, name: 'Austin', timezone: 'America/Chicago', address: {}, revision: 2, deleted_by: world.owner.id } }]);
  const again = await world.owner.request('DELETE', `/settings/locations/${austin.id}`);
  t.is(again.status, 404);
  t.deepEqual(again.body, { error: `Location ${austin.id} not found` });
  t.deepEqual((await world.owner.request('PATCH', `/settings/locations/${UNKNOWN}`, { name: 'x' })).body, { error: `Location ${UNKNOWN} not found` });
  t.deepEqual(world.takeEvents(), []);
});

test.serial('a location name is unique in the workspace ignoring case (409 naming the holder); bad input is a 400 naming the field', async (t) => {
  const first = await ok(world.owner.request('POST', '/settings/locations', { name: 'Lisbon', timezone: 'Europe/Lisbon' }));
  const other = await ok(world.owner.request('POST', '/settings/locations', { name: 'Porto', timezone: 'Europe/Lisbon' }));
  world.takeEvents();
  const clash = await world.owner.request('POST', '/settings/locations', { name: 'LISBON', timezone: 'Europe/Lisbon' });
  t.is(clash.status, 409);
  t.deepEqual(clash.body, { error: `Location ${first.id} is already named Lisbon` });
  t.deepEqual((await world.owner.request('PATCH', `/settings/locations/${other.id}`, { name: 'lisbon' })).body, { error: `Location ${first.id} is already named Lisbon` });
  t.deepEqual(world.takeEvents(), []);
  await refusals(t, 'POST', '/settings/locations', 'locations', [
    [{ timezone: 'UTC' }, 'name is required', 'name'],
    [{ name: 'Nowhere' }, 'timezone is required', 'timezone'],
    [{ name: 'Nowhere', timezone: 'Atlantis/Capital' }, 'timezone: Atlantis/Capital is not an IANA time zone (such as Europe/Paris or UTC)', 'timezone'],
    [{ name: 'x'.repeat(201), timezone: 'UTC' }, 'name length must be less than or equal to 200 characters long', 'name'],
    [{ name: 'Nowhere', timezone: 'UTC', address: { city: 'x'.repeat(101) } }, 'address.city length must be less than or equal to 100 characters long', 'address.city'],
  ]);
  for (const location of [first, other]) await ok(world.owner.request('DELETE', `/settings/locations/${location.id}`));
});

test.serial('locations are searchable by name through GET /search and follow renames and deletes', async (t) => {
  const location = await ok(world.owner.request('POST', '/settings/locations', { name: 'Quokka Depot', timezone: 'Australia/Perth', address: { city: 'Perth', country: 'AU' } }));
  const found = async (q: string) => (await world.owner.request('GET', `/search?app=settings&q=${q}`)).body.data.map((hit: { type: string; title: string; subtitle: string; url: string }) => [hit.type, hit.title, hit.subtitle, hit.url]);
  t.deepEqual(await found('quokka'), [['location', 'Quokka Depot', 'Perth, AU · Australia/Perth', `/settings/locations/${location.id}`]]);
  await ok(world.owner.request('PATCH', `/settings/locations/${location.id}`, { name: 'Wombat Depot' }));
  t.deepEqual(await found('wombat'), [['location', 'Wombat Depot', 'Perth, AU · Australia/Perth', `/settings/locations/${location.id}`]]);
  await ok(world.owner.request('DELETE', `/settings/locations/${location.id}`));
  t.deepEqual(await found('wombat'), []);
});

test.serial('calendars: create with defaults, change, delete with its holidays; calendar.created|updated|deleted once each', async (t) => {
  world.takeEvents();
  const created = await world.owner.request('POST', '/settings/calendars', { name: 'Standard' });
  t.is(created.status, 200);
  const standard = created.body.data;
  t.like(standard, { name: 'Standard', working_days: [1, 2, 3, 4, 5], hours_per_day: 8, region: null });
  t.deepEqual(world.takeEvents(), [{ action: 'core.settings.calendar.created', payload: { calendar_id: standard.id, name: 'Standard', working_days: [1, 2, 3, 4, 5], hours_per_day: 8, created_by: world.owner.id } }]);
  const changed = await ok(world.owner.request('PATCH', `/settings/calendars/${standard.id}`, { working_days: [6, 1, 2, 3, 4], hours_per_day: 7.5, region: 'de-by' }));
  t.like(changed, { working_days: [1, 2, 3, 4, 6], hours_per_day: 7.5, region: 'DE-BY' });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.settings.calendar.updated', payload: { calendar_id: standard.id, name: 'Standard', working_days: [1, 2, 3, 4, 6], hours_per_day: 7.5, region: 'DE-BY', changed_fields: ['working_days', 'hours_per_day', 'region'], updated_by: world.owner.id } },
  ]);
  const part = await ok(world.owner.request('POST', '/settings/calendars', { name: 'Part time', working_days: [1, 3], hours_per_day: 4 }));
  t.deepEqual((await world.owner.request('GET', '/settings/calendars')).body.data.map((calendar: { name: string }) => calendar.name), ['Part time', 'Standard']);
  t.deepEqual((await world.owner.request('GET', `/settings/calendars/${standard.id}`)).body, { data: changed, links: { self: `/settings/calendars/${standard.id}` } });
  t.deepEqual((await world.owner.request('POST', '/settings/calendars', { name: 'standard' })).body, { error: `Calendar ${standard.id} is already named Standard` });
  await ok(world.owner.request('POST', `/settings/calendars/${part.id}/holidays`, { date: '2026-12-24', name: 'Christmas Eve' }));
  world.takeEvents();
  t.deepEqual((await world.owner.request('DELETE', `/settings/calendars/${part.id}`)).body, { data: { id: part.id, deleted: true }, links: { self: `/settings/calendars/${part.id}` } });
  t.deepEqual(world.takeEvents(), [{ action: 'core.settings.calendar.deleted', payload: { calendar_id: part.id, name: 'Part time', deleted_by: world.owner.id } }]);
  t.is((await world.platform.query<{ n: number }>('SELECT count(*)::int AS n FROM app_settings.holidays WHERE calendar_id = :id', { id: part.id }))[0].n, 0);
  t.deepEqual((await world.owner.request('GET', `/settings/calendars/${part.id}/holidays`)).body, { error: `Calendar ${part.id} not found` });
  await refusals(t, 'POST', '/settings/calendars', 'calendars', [
    [{ name: 'Bad', working_days: [1, 1] }, 'working_days must not name a day twice', 'working_days'],
    [{ name: 'Bad', working_days: [0] }, 'working_days[0] must be greater than or equal to 1', 'working_days[0]'],
    [{ name: 'Bad', hours_per_day: 0 }, 'hours_per_day must be greater than 0', 'hours_per_day'],
    [{ name: 'Bad', hours_per_day: 25 }, 'hours_per_day must be less than or equal to 24', 'hours_per_day'],
    [{ name: 'Bad', region: 'ZZ' }, 'region: ZZ is not a region date-holidays knows (a country such as DE, or a country and a subdivision such as DE-BY)', 'region'],
  ]);
});

test.serial('holidays: add by hand (409 for the same day and name), list by date, delete (404 through another calendar); one event each', async (t) => {
  const calendar = await ok(world.owner.request('POST', '/settings/calendars', { name: 'Manual holidays' }));
  const other = await ok(world.owner.request('POST', '/settings/calendars', { name: 'Other calendar' }));
  world.takeEvents();
  const founders = await world.owner.request('POST', `/settings/calendars/${calendar.id}/holidays`, { date: '2026-06-01', name: 'Founders Day' });
  t.is(founders.status, 200);
  const holiday = founders.body.data;
  t.like(holiday, { calendar_id: calendar.id, date: '2026-06-01', name: 'Founders Day', source: 'manual' });
  t.deepEqual(world.takeEvents(), [{ action: 'core.settings.holiday.created', payload: { holiday_id: holiday.id, calendar_id: calendar.id, date: '2026-06-01', name: 'Founders Day', source: 'manual', created_by: world.owner.id } }]);
  await ok(world.owner.request('POST', `/settings/calendars/${calendar.id}/holidays`, { date: '2025-01-02', name: 'Day after' }));
  world.takeEvents();
  t.deepEqual((await world.owner.request('POST', `/settings/calendars/${calendar.id}/holidays`, { date: '2026-06-01', name: 'FOUNDERS DAY' })).body, { error: `Calendar ${calendar.id} already has the holiday Founders Day on 2026-06-01` });
  await refusals(t, 'POST', `/settings/calendars/${calendar.id}/holidays`, 'holidays', [
    [{ name: 'No date' }, 'date is required', 'date'],
    [{ date: '2026-02-30', name: 'Never' }, 'date must be a real date in YYYY-MM-DD form', 'date'],
  ]);
  const listed = await world.owner.request('GET', `/settings/calendars/${calendar.id}/holidays`);
  t.deepEqual(listed.body.data.map((row: { date: string }) => row.date), ['2025-01-02', '2026-06-01']);
  t.deepEqual((await world.owner.request('GET', `/settings/calendars/${calendar.id}/holidays?year=2026`)).body.data, [holiday]);
  t.deepEqual((await world.owner.request('DELETE', `/settings/calendars/${other.id}/holidays/${holiday.id}`)).body, { error: `Holiday ${holiday.id} not found` });
  t.deepEqual((await world.owner.request('DELETE', `/settings/calendars/${calendar.id}/holidays/${holiday.id}`)).body, { data: { id: holiday.id, deleted: true }, links: { self: `/settings/calendars/${calendar.id}/holidays/${holiday.id}` } });
  t.deepEqual(world.takeEvents(), [{ action: 'core.settings.holiday.deleted', payload: { holiday_id: holiday.id, calendar_id: calendar.id, date: '2026-06-01', name: 'Founders Day', source: 'manual', deleted_by: world.owner.id } }]);
  t.is((await world.owner.request('DELETE', `/settings/calendars/${calendar.id}/holidays/${holiday.id}`)).status, 404);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('POST /holidays/import adds the public holidays of a region and year from date-holidays, one holiday.created each; a re-import adds nothing and emits nothing', async (t) => {
  const calendar = await ok(world.owner.request('POST', '/settings/calendars', { name: 'Bavaria' }));
  await ok(world.owner.request('POST', `/settings/calendars/${calendar.id}/holidays`, { date: '2026-01-01', name: 'Neujahr' }));
  world.takeEvents();
  const imported = await world.owner.request('POST', `/settings/calendars/${calendar.id}/holidays/import`, { region: 'de-by', year: 2026 });
  t.is(imported.status, 200);
  const result = imported.body.data;
  t.is(result.region, 'DE-BY');
  t.is(result.year, 2026);
  t.is(result.skipped, 1, 'Neujahr was there already');
  t.deepEqual(result.created.map((holiday: { date: string; name: string }) => `${holiday.date} ${holiday.name}`), [
    '2026-01-06 Heilige Drei Könige',
    '2026-04-03 Karfreitag',
    '2026-04-06 Ostermontag',
    '2026-05-01 Maifeiertag',
    '2026-05-14 Christi Himmelfahrt',
    '2026-05-25 Pfingstmontag',
    '2026-06-04 Fronleichnam',
    '2026-10-03 Tag der Deutschen Einheit',
    '2026-11-01 Allerheiligen',
    '2026-12-25 1. Weihnachtstag',
    '2026-12-26 2. Weihnachtstag',
  ]);
  t.true(result.created.every((holiday: { source: string }) => holiday.source === 'import'));
  const events = world.takeEvents();
  t.is(events.length, 11);
  t.true(events.every((event) => event.action === 'core.settings.holiday.created' && event.payload.source === 'import'));
  t.deepEqual(events.map((event) => event.payload.holiday_id), result.created.map((holiday: { id: string }) => holiday.id));

  const again = await ok(world.owner.request('POST', `/settings/calendars/${calendar.id}/holidays/import`, { region: 'DE-BY', year: 2026 }));
  t.deepEqual(again, { region: 'DE-BY', year: 2026, created: [], skipped: 12 });
  t.deepEqual(world.takeEvents(), []);
  const page = (await world.owner.request('GET', `/settings/calendars/${calendar.id}/holidays?year=2026&per_page=5&page=3`)).body;
  t.deepEqual(page.data.map((holiday: { date: string; name: string }) => `${holiday.date} ${holiday.name}`), ['2026-12-25 1. Weihnachtstag', '2026-12-26 2. Weihnachtstag']);
  t.deepEqual(page.pagination, { page: 3, per_page: 5, total: 12, pages: 3 });

  await refusals(t, 'POST', `/settings/calendars/${calendar.id}/holidays/import`, 'holidays', [
    [{ region: 'ZZ', year: 2026 }, 'region: ZZ is not a region date-holidays knows (a country such as DE, or a country and a subdivision such as DE-BY)', 'region'],
    [{ region: 'DE-XX', year: 2026 }, 'region: DE-XX is not a region date-holidays knows (a country such as DE, or a country and a subdivision such as DE-BY)', 'region'],
    [{ region: 'DE' }, 'year is required', 'year'],
    [{ region: 'DE', year: 2199 }, `year: holidays can be imported up to ${new Date().getUTCFullYear() + 2} (the setting holiday_import_years_ahead)`, 'year'],
  ]);
  t.deepEqual((await world.owner.request('POST', `/settings/calendars/${UNKNOWN}/holidays/import`, { region: 'DE', year: 2026 })).body, { error: `Calendar ${UNKNOWN} not found` });
});

test.serial('an app installed in the workspace: every live location is announced once with its current revision (for its copies); none for Settings itself', async (t) => {
  // One live location by now (created, then renamed once: revision 2); the deleted one is gone.
  const [berlin] = ok(await world.owner.get('/settings/locations?per_page=100'));
  t.is(berlin.name, 'Berlin HQ');
  world.takeEvents();
  await world.deliver('core.account.application.installed', { app_slug: 'settings', app_name: 'Settings', installed_by: world.owner.id });
  t.deepEqual(world.takeEvents(), []);
  await world.deliver('core.account.application.installed', { app_slug: 'attendance', app_name: 'Attendance', installed_by: world.owner.id });
  t.deepEqual(
    world.takeEvents(),
    [
      {
        action: 'core.settings.location.announced',
        payload: { location_id: berlin.id, mrn: `mrn:settings:location:${berlin.id}`, name: 'Berlin HQ', timezone: 'Europe/Berlin', address: { street: 'Unter den Linden 1', city: 'Berlin', country: 'DE' }, revision: 2, for_app: 'attendance' },
      },
    ],
  );
});

test.serial("preferences belong to the calling member: defaults until saved, PUT emits preferences.updated once, another member's stay their own", async (t) => {
  const member = await world.member(['settings.preferences.read', 'settings.preferences.edit']);
  world.takeEvents();
  t.deepEqual((await member.request('GET', '/settings/preferences')).body, {
    data: { member_id: member.id, language: 'en', timezone: null, date_format: 'YYYY-MM-DD', notification_channels: ['in_app', 'email'], updated_at: null },
    links: { self: '/settings/preferences' },
  });
  const saved = await ok(member.request('PUT', '/settings/preferences', { language: 'fr-fr', timezone: 'Europe/Paris', date_format: 'DD/MM/YYYY', notification_channels: ['email', 'push', 'email'] }));
  t.like(saved, { member_id: member.id, language: 'fr-FR', timezone: 'Europe/Paris', date_format: 'DD/MM/YYYY', notification_channels: ['email', 'push'] });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.settings.preferences.updated', payload: { member_id: member.id, member_mrn: member.mrn, language: 'fr-FR', timezone: 'Europe/Paris', date_format: 'DD/MM/YYYY', notification_channels: ['email', 'push'], changed_fields: ['language', 'timezone', 'date_format', 'notification_channels'] } },
  ]);
  t.deepEqual((await member.request('GET', '/settings/preferences')).body.data, saved);
  t.is((await world.owner.request('GET', '/settings/preferences')).body.data.language, 'en', "the owner's are still the defaults");
  await ok(member.request('PUT', '/settings/preferences', { language: 'fr-FR' }));
  t.deepEqual(world.takeEvents(), []);
  await ok(member.request('PUT', '/settings/preferences', { timezone: null }));
  t.deepEqual(world.takeEvents().map((event) => event.payload.changed_fields), [['timezone']]);
  for (const [body, error, field] of [
    [{ timezone: 'Moon/Base' }, 'timezone: Moon/Base is not an IANA time zone (such as Europe/Paris or UTC)', 'timezone'],
    [{ language: '12345678901' }, 'language: 12345678901 is not a BCP 47 language tag (such as en-GB or fr)', 'language'],
    [{ date_format: 'YY' }, 'date_format must be one of [YYYY-MM-DD, DD/MM/YYYY, MM/DD/YYYY, DD.MM.YYYY]', 'date_format'],
    [{ notification_channels: ['pigeon'] }, 'notification_channels[0] must be one of [in_app, email, push]', 'notification_channels[0]'],
  ] as const) {
    const reply = await member.request('PUT', '/settings/preferences', body);
    t.is(reply.status, 400);
    t.deepEqual(reply.body, { error, field });
  }
  t.deepEqual(world.takeEvents(), []);
});

test('the permission matrix: every route refuses a member without its key with the exact 403 and lets a holder through', async (t) => {
  const document = await ok(world.owner.get('/settings/export'));
  const rows = await world.workspace.permissionMatrix('settings', { payloads: { 'POST /settings/imports': { document } } });
  t.is(rows.length, manifest.authorization.length);
  // Configuration as code: past layer 5, the platform's part needs an owner or admin (layer 3, ctx.configuration).
  const configuration = (row: { route: string }) => /^(GET|POST) \/settings\/(export|imports)/.test(row.route);
  checkMatrixRows(t, rows.filter((row) => !configuration(row)));
  t.deepEqual(
    rows.filter(configuration).map((row) => [row.route, row.without, row.with]),
    [
      ['GET /settings/export', { status: 403, body: { error: 'Missing permission: settings.exports.read' } }, { status: 403 }],
      ['POST /settings/imports', { status: 403, body: { error: 'Missing permission: settings.imports.manage' } }, { status: 403 }],
      ['GET /settings/imports/{plan_id}', { status: 403, body: { error: 'Missing permission: settings.imports.manage' } }, { status: 403 }],
      ['POST /settings/imports/{plan_id}/apply', { status: 403, body: { error: 'Missing permission: settings.imports.manage' } }, { status: 403 }],
    ],
  );
});
