import { ConflictError, InvalidError, NotFoundError, Op } from '@wpk/sdk';
import type HolidaysCatalog from 'date-holidays';
import { resource, type SettingsContext } from '../kit.js';
import type { Calendar, Holiday } from '../models/index.js';
import { assertNameFree } from './locations.js';
import { holidayPayload } from './present.js';

/** What a calendar create or update may set; `region: null` clears it. */
export interface CalendarInput {
  name?: string;
  working_days?: number[];
  hours_per_day?: number;
  region?: string | null;
}

/** The calendar fields `calendar.*` events carry. */
function calendarPayload(calendar: Calendar) {
  return { calendar_id: calendar.id, name: calendar.name, working_days: calendar.working_days, hours_per_day: calendar.hours_per_day, region: calendar.region };
}

/** Working calendars of the workspace and the events of every write. */
export const calendars = resource({
  model: 'calendars',
  label: 'Calendar',
  order: [['name', 'ASC'], ['id', 'ASC']],
  searchColumns: ['name'],
  events: {
    created: (calendar, ctx) => ['core.settings.calendar.created', { ...calendarPayload(calendar), created_by: ctx.member!.id }],
    updated: (calendar, changed, ctx) => ['core.settings.calendar.updated', { ...calendarPayload(calendar), changed_fields: changed, updated_by: ctx.member!.id }],
    deleted: (calendar, ctx) => ['core.settings.calendar.deleted', { calendar_id: calendar.id, name: calendar.name, deleted_by: ctx.member!.id }],
  },
});

/** Holidays of the calendars; every write emits `holiday.created|deleted`. */
export const holidays = resource({
  model: 'holidays',
  label: 'Holiday',
  order: [['date', 'ASC'], ['id', 'ASC']],
  events: {
    created: (holiday, ctx) => ['core.settings.holiday.created', { ...holidayPayload(holiday), created_by: ctx.member!.id }],
    deleted: (holiday, ctx) => ['core.settings.holiday.deleted', { ...holidayPayload(holiday), deleted_by: ctx.member!.id }],
  },
});

/**
 * date-holidays, loaded on the first request that needs it: its data takes ~150 ms to load, which
 * every server start would otherwise pay for a route that is rarely called.
 */
let holidaysModule: Promise<typeof HolidaysCatalog> | undefined;
const loadHolidays = () => (holidaysModule ??= import('date-holidays').then((module) => module.default));

/**
 * A date-holidays region: a country (`DE`) or a country and a subdivision (`DE-BY`, `US-CA`) as
 * ISO 3166 names them, in upper case; 400 naming `field` when date-holidays does not know it.
 */
export async function holidayRegion(region: string, field = 'region'): Promise<string> {
  const catalog = new (await loadHolidays())();
  const [country, state, ...rest] = region.toUpperCase().split('-');
  const known = rest.length === 0 && country in (catalog.getCountries() ?? {}) && (state === undefined || state in (catalog.getStates(country) ?? {}));
  if (!known) throw new InvalidError(`${field}: ${region} is not a region date-holidays knows (a country such as DE, or a country and a subdivision such as DE-BY)`, { field });
  return state ? `${country}-${state}` : country;
}

/** Working days: distinct ISO weekday numbers, stored in order. */
function workingDays(days: number[]): number[] {
  if (new Set(days).size !== days.length) throw new InvalidError('working_days must not name a day twice', { field: 'working_days' });
  return [...days].sort((a, b) => a - b);
}

/** One page of the workspace's calendars by name. */
export function listCalendars(ctx: SettingsContext, q?: string) {
  return calendars.list(ctx, { q });
}

/** Creates a working calendar (Monday to Friday, 8 hours, when not given). Emits `calendar.created`. */
export async function createCalendar(ctx: SettingsContext, input: CalendarInput & { name: string }): Promise<Calendar> {
  const region = input.region ? await holidayRegion(input.region) : null;
  await assertNameFree(ctx, 'calendars', 'Calendar', input.name, null);
  return calendars.create(ctx, { name: input.name, working_days: workingDays(input.working_days ?? [1, 2, 3, 4, 5]), hours_per_day: input.hours_per_day ?? 8, region });
}

/** Changes the given fields of a calendar; emits `calendar.updated` with `changed_fields` when something changed. */
export async function updateCalendar(ctx: SettingsContext, calendarId: string, input: CalendarInput): Promise<Calendar> {
  const calendar = await calendars.require(ctx, calendarId, { lock: 'update' });
  const next = {
    name: input.name ?? calendar.name,
    working_days: input.working_days === undefined ? calendar.working_days : workingDays(input.working_days),
    hours_per_day: input.hours_per_day ?? calendar.hours_per_day,
    region: input.region === undefined ? calendar.region : input.region ? await holidayRegion(input.region) : null,
  };
  if (next.name !== calendar.name) await assertNameFree(ctx, 'calendars', 'Calendar', next.name, calendar.id);
  return (await calendars.patch(ctx, calendar, next)).row;
}

/** Deletes a calendar with its holidays (their rows go with it; `calendar.deleted` tells the copies). */
export async function deleteCalendar(ctx: SettingsContext, calendarId: string) {
  const calendar = await calendars.remove(ctx, calendarId);
  return { id: calendar.id, deleted: true };
}

/** One page of the calendar's holidays by date, optionally of one year. */
export async function listHolidays(ctx: SettingsContext, calendarId: string, year?: number) {
  await calendars.require(ctx, calendarId);
  return holidays.list(ctx, { where: year === undefined ? { calendar_id: calendarId } : { calendar_id: calendarId, date: rangeOf(year) } });
}

/** The `date` condition of one calendar year. */
function rangeOf(year: number) {
  return { [Op.between]: [`${year}-01-01`, `${year}-12-31`] };
}

/** Adds a holiday to a calendar. Emits `holiday.created`. */
export async function createHoliday(ctx: SettingsContext, calendarId: string, input: { date: string; name: string }): Promise<Holiday> {
  await calendars.require(ctx, calendarId, { lock: 'update' });
  const clash = (await ctx.db.holidays.findAll({ where: { calendar_id: calendarId, date: input.date } })).find((holiday) => holiday.name.toLowerCase() === input.name.toLowerCase());
  if (clash) throw new ConflictError(`Calendar ${calendarId} already has the holiday ${clash.name} on ${clash.date}`);
  return holidays.create(ctx, { calendar_id: calendarId, date: input.date, name: input.name, source: 'manual' });
}

/** Removes a holiday of a calendar (404 for a holiday of another calendar). Emits `holiday.deleted`. */
export async function deleteHoliday(ctx: SettingsContext, calendarId: string, holidayId: string) {
  await calendars.require(ctx, calendarId, { lock: 'update' });
  const holiday = await holidays.find(ctx, holidayId, { lock: 'update' });
  if (!holiday || holiday.calendar_id !== calendarId) throw new NotFoundError(`Holiday ${holidayId} not found`);
  await holidays.remove(ctx, holiday);
  return { id: holiday.id, deleted: true };
}

/**
 * Imports the public holidays of `region` in `year` from date-holidays' offline data into the
 * calendar. A holiday the calendar already has that day under that name is left as it is, so a
 * second import of the same region and year adds nothing; each holiday added emits its own
 * `holiday.created` (decision record 0212).
 */
export async function importHolidays(ctx: SettingsContext, calendarId: string, input: { region: string; year: number }) {
  const region = await holidayRegion(input.region);
  const latest = ctx.now().getUTCFullYear() + ctx.settings.holiday_import_years_ahead;
  if (input.year > latest) throw new InvalidError(`year: holidays can be imported up to ${latest} (the setting holiday_import_years_ahead)`, { field: 'year' });
  await calendars.require(ctx, calendarId, { lock: 'update' });
  const [country, state] = region.split('-');
  const Holidays = await loadHolidays();
  const source = state ? new Holidays(country, state, { types: ['public'] }) : new Holidays(country, { types: ['public'] });
  const found = source.getHolidays(input.year).filter((holiday) => holiday.type === 'public');
  const have = await ctx.db.holidays.findAll({ where: { calendar_id: calendarId, date: rangeOf(input.year) } });
  const seen = new Set(have.map((holiday) => `${holiday.date} ${holiday.name.toLowerCase()}`));
  const created: Holiday[] = [];
  for (const entry of found) {
    const date = entry.date.slice(0, 10);
    const name = entry.name.slice(0, 200);
    const key = `${date} ${name.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    created.push(await holidays.create(ctx, { calendar_id: calendarId, date, name, source: 'import' }));
  }
  return { region, year: input.year, created, skipped: found.length - created.length };
}
