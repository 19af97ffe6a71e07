import { createHash } from 'node:crypto';
import { ConflictError, InvalidError, NotFoundError, type ConfigurationChange, type PlatformConfiguration } from '@wpk/sdk';
import type { SettingsContext } from '../kit.js';
import type { LocationAddress, WeekDay } from '../models/index.js';
import { createCalendar, createHoliday, deleteCalendar, deleteHoliday, holidayRegion, updateCalendar } from './calendars.js';
import { createLocation, deleteLocation, updateLocation } from './locations.js';
import { presentOrganization, readOrganization, updateOrganization } from './organization.js';
import { currency, languageTag, timeZone } from './values.js';

/** The version of the document's shape. */
export const FORMAT = 'wpk.settings/1';
/** How long a plan may be applied after it was made. */
export const PLAN_TTL_MS = 60 * 60 * 1000;

/** The organisation profile as the document carries it. */
interface OrganizationPart {
  legal_name: string;
  logo_key: string | null;
  base_currency: string;
  timezone: string;
  locale: string;
  week_start: WeekDay;
  fiscal_year_start_month: number;
}
interface LocationPart {
  timezone: string;
  address: LocationAddress;
}
interface CalendarPart {
  working_days: number[];
  hours_per_day: number;
  region: string | null;
  holidays: Array<{ date: string; name: string }>;
}

/** The whole document (`GET /settings/export`), every map keyed by name in code-point order. */
export interface SettingsDocument extends PlatformConfiguration {
  format: typeof FORMAT;
  organization: OrganizationPart;
  locations: Record<string, LocationPart>;
  calendars: Record<string, CalendarPart>;
}

/** The parts of the document, in the order a plan lists them and an apply writes them. */
const PARTS = ['organization', 'locations', 'calendars', 'roles', 'apps'] as const;
type Part = (typeof PARTS)[number];

/** A plan as stored and answered: per part the changes and how many entries stay as they are. */
type PlanChanges = Record<Part, { changes: ConfigurationChange[]; unchanged: number }>;

const byName = <T>(entries: Array<[string, T]>): Record<string, T> => Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const holidayOrder = (a: { date: string; name: string }, b: { date: string; name: string }) => (a.date === b.date ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.date < b.date ? -1 : 1);
/** An address with the document's key order (the empty parts left out). */
const addressOf = (address: LocationAddress): LocationAddress => Object.fromEntries((['street', 'city', 'region', 'postal_code', 'country'] as const).filter((part) => address[part]).map((part) => [part, address[part]]));

/** The workspace's configuration now: the Settings app's records and the platform's part. */
export async function exportDocument(ctx: SettingsContext): Promise<SettingsDocument> {
  const { revision: _revision, updated_at: _updatedAt, ...organization } = presentOrganization(ctx, await readOrganization(ctx));
  const platform = await ctx.configuration.read();
  const locationRows = await ctx.db.locations.findAll({ order: [['name', 'ASC'], ['id', 'ASC']] });
  const calendarRows = await ctx.db.calendars.findAll({ order: [['name', 'ASC'], ['id', 'ASC']] });
  const holidayRows = await ctx.db.holidays.findAll({ order: [['date', 'ASC'], ['name', 'ASC']] });
  return {
    format: FORMAT,
    organization,
    locations: byName(locationRows.map((row) => [row.name, { timezone: row.timezone, address: addressOf(row.address) }])),
    calendars: byName(
      calendarRows.map((row) => [
        row.name,
        {
          working_days: row.working_days,
          hours_per_day: row.hours_per_day,
          region: row.region,
          holidays: holidayRows.filter((holiday) => holiday.calendar_id === row.id).map((holiday) => ({ date: holiday.date, name: holiday.name })).sort(holidayOrder),
        },
      ]),
    ),
    roles: platform.roles,
    apps: platform.apps,
  };
}

/** The fingerprint of each part of a document, and of them all: what a plan was computed from. */
function fingerprints(document: SettingsDocument): Record<Part | 'all', string> {
  const hash = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
  const parts = Object.fromEntries(PARTS.map((part) => [part, hash(document[part])])) as Record<Part, string>;
  return { ...parts, all: hash(PARTS.map((part) => parts[part])) };
}

/** Runs each check, collecting the 400s' messages instead of stopping at the first. */
async function collect(problems: string[], checks: Array<() => unknown>): Promise<void> {
  for (const check of checks) {
    try {
      await check();
    } catch (error) {
      if (!(error instanceof InvalidError)) throw error;
      problems.push(error.message);
    }
  }
}

/** A name-keyed part's changes: created, updated (with the fields that differ), deleted; matched ignoring case. */
function diffByName<T extends object>(part: string, now: Record<string, T>, wanted: Record<string, T>, problems: string[]) {
  const changes: ConfigurationChange[] = [];
  const nowByKey = new Map(Object.keys(now).map((name) => [name.toLowerCase(), name]));
  const seen = new Map<string, string>();
  let unchanged = 0;
  for (const [name, value] of Object.entries(wanted)) {
    const key = name.toLowerCase();
    if (seen.has(key)) problems.push(`${part}.${name}: ${part}.${seen.get(key)} has the same name (names are compared ignoring case)`);
    seen.set(key, name);
    const current = nowByKey.get(key);
    if (current === undefined) {
      changes.push({ path: `${part}.${name}`, op: 'create' });
      continue;
    }
    const before = now[current] as Record<string, unknown>;
    const fields = [...(current !== name ? ['name'] : []), ...Object.keys(value).filter((field) => !same(before[field], (value as Record<string, unknown>)[field]))];
    if (fields.length === 0) unchanged++;
    else changes.push({ path: `${part}.${name}`, op: 'update', fields });
  }
  for (const name of Object.keys(now)) if (!seen.has(name.toLowerCase())) changes.push({ path: `${part}.${name}`, op: 'delete' });
  return { changes, unchanged };
}

/** The document with its values in stored form (`eur` → `EUR`, holidays sorted), or 400 naming every failing path. */
async function normalise(ctx: SettingsContext, given: SettingsDocument, problems: string[]): Promise<SettingsDocument> {
  const organization = { ...given.organization, logo_key: given.organization.logo_key || null };
  await collect(problems, [
    () => (organization.base_currency = currency(organization.base_currency, 'organization.base_currency')),
    () => (organization.timezone = timeZone(organization.timezone, 'organization.timezone')),
    () => (organization.locale = languageTag(organization.locale, 'organization.locale')),
  ]);
  const locationParts: Array<[string, LocationPart]> = [];
  for (const [name, location] of Object.entries(given.locations)) {
    await collect(problems, [() => timeZone(location.timezone, `locations.${name}.timezone`)]);
    locationParts.push([name, { timezone: location.timezone, address: addressOf(Object.fromEntries(Object.entries(location.address ?? {}).map(([part, value]) => [part, typeof value === 'string' ? value.trim() : value]))) }]);
  }
  const calendarParts: Array<[string, CalendarPart]> = [];
  for (const [name, calendar] of Object.entries(given.calendars)) {
    const path = `calendars.${name}`;
    let region = calendar.region || null;
    await collect(problems, [async () => (region = region ? await holidayRegion(region, `${path}.region`) : null)]);
    if (new Set(calendar.working_days).size !== calendar.working_days.length) problems.push(`${path}.working_days: must not name a day twice`);
    const days = new Set<string>();
    calendar.holidays.forEach((holiday, index) => {
      const key = `${holiday.date} ${holiday.name.toLowerCase()}`;
      if (days.has(key)) problems.push(`${path}.holidays[${index}]: ${holiday.name} on ${holiday.date} is listed twice`);
      days.add(key);
    });
    calendarParts.push([name, { working_days: [...calendar.working_days].sort((a, b) => a - b), hours_per_day: calendar.hours_per_day, region, holidays: [...calendar.holidays].sort(holidayOrder) }]);
  }
  return { format: FORMAT, organization, locations: byName(locationParts), calendars: byName(calendarParts), roles: given.roles, apps: given.apps };
}

/** What the document changes against the workspace now, per part; 400 naming every invalid path, all of them. */
async function diffDocument(ctx: SettingsContext, given: SettingsDocument, now: SettingsDocument): Promise<{ document: SettingsDocument; plan: PlanChanges }> {
  const problems: string[] = [];
  const document = await normalise(ctx, given, problems);
  const organizationFields = (Object.keys(document.organization) as Array<keyof OrganizationPart>).filter((field) => document.organization[field] !== now.organization[field]);
  const plan = {
    organization: { changes: organizationFields.length > 0 ? [{ path: 'organization', op: 'update' as const, fields: organizationFields }] : [], unchanged: organizationFields.length > 0 ? 0 : 1 },
    locations: diffByName('locations', now.locations, document.locations, problems),
    calendars: diffByName('calendars', now.calendars, document.calendars, problems),
  } as PlanChanges;
  try {
    const platform = await ctx.configuration.plan({ apps: document.apps, roles: document.roles });
    plan.roles = { changes: platform.changes.filter((change) => change.path.startsWith('roles.')), unchanged: platform.unchanged.roles };
    plan.apps = { changes: platform.changes.filter((change) => change.path.startsWith('apps.')), unchanged: platform.unchanged.apps };
  } catch (error) {
    if (!(error instanceof InvalidError)) throw error;
    problems.push(error.message);
  }
  if (problems.length > 0) throw new InvalidError(problems.join('; '), { field: 'document' });
  return { document, plan };
}

/** How a stored plan is answered. */
function presentPlan(row: { id: string; changes: Record<string, unknown>; expires_at: Date; applied_at: Date | null; created_at?: Date }) {
  const plan = row.changes.plan as PlanChanges;
  const total = PARTS.reduce((sum, part) => sum + plan[part].changes.length, 0);
  return { id: row.id, ...Object.fromEntries(PARTS.map((part) => [part, plan[part]])), total_changes: total, expires_at: row.expires_at, applied_at: row.applied_at };
}

/** Validates the document, computes its plan against the workspace now and stores it (1 hour to apply it). */
export async function planImport(ctx: SettingsContext, given: SettingsDocument) {
  ctx.configuration.requireCaller();
  const now = await exportDocument(ctx);
  const { document, plan } = await diffDocument(ctx, given, now);
  const stamp = fingerprints(now);
  const row = await ctx.db.importPlans.create({
    fingerprint: stamp.all,
    document: document as unknown as Record<string, unknown>,
    changes: { plan, parts: stamp },
    created_by: ctx.member.id,
    expires_at: new Date(ctx.now().getTime() + PLAN_TTL_MS),
    applied_at: null,
    applied_by: null,
  });
  return presentPlan(row);
}

/** A stored plan, or 404. */
export async function readPlan(ctx: SettingsContext, planId: string) {
  ctx.configuration.requireCaller();
  const row = await ctx.db.importPlans.findOne({ where: { id: planId } });
  if (!row) throw new NotFoundError(`Import plan ${planId} not found`);
  return presentPlan(row);
}

/** The Settings app's part of an apply: deletions first (a name may come back in another case), then creations and updates. */
async function applyRecords(ctx: SettingsContext, document: SettingsDocument, plan: PlanChanges): Promise<void> {
  if (plan.organization.changes.length > 0) await updateOrganization(ctx, document.organization);
  const named = async (model: 'locations' | 'calendars', name: string) => (await ctx.db[model].findAll({ where: {} })).find((row) => row.name.toLowerCase() === name.toLowerCase())!;
  const nameOf = (change: ConfigurationChange, part: string) => change.path.slice(part.length + 1);
  for (const change of plan.locations.changes.filter((entry) => entry.op === 'delete')) await deleteLocation(ctx, (await named('locations', nameOf(change, 'locations'))).id);
  for (const change of plan.calendars.changes.filter((entry) => entry.op === 'delete')) await deleteCalendar(ctx, (await named('calendars', nameOf(change, 'calendars'))).id);
  for (const change of plan.locations.changes.filter((entry) => entry.op !== 'delete')) {
    const name = nameOf(change, 'locations');
    const wanted = document.locations[name];
    if (change.op === 'create') await createLocation(ctx, { name, ...wanted });
    else await updateLocation(ctx, (await named('locations', name)).id, { name, ...wanted });
  }
  for (const change of plan.calendars.changes.filter((entry) => entry.op !== 'delete')) {
    const name = nameOf(change, 'calendars');
    const { holidays: wantedHolidays, ...wanted } = document.calendars[name];
    const calendar = change.op === 'create' ? await createCalendar(ctx, { name, ...wanted }) : await updateCalendar(ctx, (await named('calendars', name)).id, { name, ...wanted });
    const have = await ctx.db.holidays.findAll({ where: { calendar_id: calendar.id } });
    const key = (holiday: { date: string; name: string }) => `${holiday.date} ${holiday.name}`;
    const wantedKeys = new Set(wantedHolidays.map(key));
    const haveKeys = new Set(have.map(key));
    for (const holiday of have.filter((entry) => !wantedKeys.has(key(entry)))) await deleteHoliday(ctx, calendar.id, holiday.id);
    for (const holiday of wantedHolidays.filter((entry) => !haveKeys.has(key(entry)))) await createHoliday(ctx, calendar.id, holiday);
  }
}

/**
 * Applies a stored plan in the request's one transaction: 404 for no such plan, 409 when it was
 * applied already, expired, or is stale (the fingerprint of the state now differs from the one it
 * was made from: the parts that changed are named). Emits `core.settings.import.applied` once.
 */
export async function applyPlan(ctx: SettingsContext, planId: string) {
  ctx.configuration.requireCaller();
  await ctx.lock('configuration-import');
  // The organisation's writers take this lock: none can slip in between the fingerprint and the writes.
  await ctx.lock('organization');
  const row = await ctx.db.importPlans.findOne({ where: { id: planId }, lock: 'update' });
  if (!row) throw new NotFoundError(`Import plan ${planId} not found`);
  if (row.applied_at) throw new ConflictError(`The plan ${planId} was already applied at ${new Date(row.applied_at).toISOString()}; export again and make a new plan to change more`);
  if (new Date(row.expires_at).getTime() <= ctx.now().getTime()) throw new ConflictError(`The plan ${planId} expired at ${new Date(row.expires_at).toISOString()}; make a new plan`);
  const stamp = fingerprints(await exportDocument(ctx));
  const made = (row.changes as { parts: Record<Part, string> }).parts;
  const changed = PARTS.filter((part) => made[part] !== stamp[part]);
  if (stamp.all !== row.fingerprint || changed.length > 0) throw new ConflictError(`The plan is stale: ${changed.join(', ')} changed since it was made; make a new plan`);
  const document = row.document as unknown as SettingsDocument;
  const plan = (row.changes as { plan: PlanChanges }).plan;
  const paths = PARTS.flatMap((part) => plan[part].changes.map((change) => `${change.op} ${change.path}`));
  await applyRecords(ctx, document, plan);
  await ctx.configuration.apply({ apps: document.apps, roles: document.roles }, { action: 'POST /settings/imports/{plan_id}/apply', target: `/settings/imports/${planId}/apply: ${paths.length === 0 ? 'no changes' : paths.join(', ')}` });
  const appliedAt = ctx.now();
  await ctx.db.importPlans.update({ applied_at: appliedAt, applied_by: ctx.member.id }, { where: { id: planId } });
  ctx.events.stage('core.settings.import.applied', { plan_id: planId, changes: paths, applied_by: ctx.member.id });
  return presentPlan({ ...row, applied_at: appliedAt });
}
