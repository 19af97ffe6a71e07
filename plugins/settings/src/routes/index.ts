import { Joi, NotFoundError, type JoiObjectSchema } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { DATE_FORMATS, NOTIFICATION_CHANNELS, WEEK_DAYS } from '../models/index.js';
import { calendars, createCalendar, createHoliday, deleteCalendar, deleteHoliday, importHolidays, listCalendars, listHolidays, updateCalendar } from '../services/calendars.js';
import { createLocation, deleteLocation, listLocations, locations, updateLocation } from '../services/locations.js';
import { presentOrganization, readOrganization, updateOrganization } from '../services/organization.js';
import { readPreferences, updatePreferences } from '../services/preferences.js';
import { presentCalendar, presentHoliday, presentLocation } from '../services/present.js';
import { applyPlan, exportDocument, FORMAT, planImport, readPlan } from '../services/configuration.js';
import { CALENDAR, DELETED, EXPLANATION, HOLIDAY, HOLIDAY_IMPORT, IMPORT_PLAN, LOCATION, ORGANIZATION, PREFERENCES, SETTINGS_DOCUMENT } from './answers.js';

const name = () => Joi.string().trim().min(1).max(200);
const timezone = () => Joi.string().trim().min(1).max(100);
const listQuery = Joi.object({ q: Joi.string().max(200).allow(''), page: Joi.any(), per_page: Joi.any() });

/** The parts of a postal address and their longest length. */
const ADDRESS_PARTS: Array<[string, number]> = [['street', 200], ['city', 100], ['region', 100], ['postal_code', 20], ['country', 100]];

/** A postal address; each part optional, `null` or empty clears it. */
const address = (): JoiObjectSchema => Joi.object(Object.fromEntries(ADDRESS_PARTS.map(([part, max]) => [part, Joi.string().trim().max(max).allow('', null)])));

const calendarFields = {
  name: name(),
  working_days: Joi.array().items(Joi.number().integer().min(1).max(7)).max(7),
  hours_per_day: Joi.number().greater(0).max(24),
  region: Joi.string().trim().max(20).allow('', null),
};

const locationParams = Joi.idParams('location_id');
const calendarParams = Joi.idParams('calendar_id');

const organization = routeFamily('/settings/organization', { record: ORGANIZATION, links: () => ({ self: '/settings/organization' }) });
const locationFamily = routeFamily('/settings/locations', { record: LOCATION, present: presentLocation, links: (location) => ({ self: `/settings/locations/${location.id}` }) });
const location = locationFamily.at('/{location_id}', { params: locationParams });
const calendarFamily = routeFamily('/settings/calendars', { record: CALENDAR, present: presentCalendar, links: (calendar) => ({ self: `/settings/calendars/${calendar.id}` }) });
const calendar = calendarFamily.at('/{calendar_id}', { params: calendarParams });
const holidays = calendar.at('/holidays', { record: HOLIDAY, present: presentHoliday });
const explain = routeFamily('/settings/explain', { record: EXPLANATION, links: () => ({ self: '/settings/explain' }) });
const preferences = routeFamily('/settings/preferences', { record: PREFERENCES, links: () => ({ self: '/settings/preferences' }) });

/** The organisation profile. */
const organizationRoutes = [
  organization.get({
    chain: ['settings.organizations.read'],
    description: "Reads the organisation profile (the defaults while nobody set it)",
    run: async (_request, ctx) => presentOrganization(ctx, await readOrganization(ctx)),
  }),
  organization.put({
    chain: ['settings.organizations.edit'],
    description: 'Sets the given fields of the organisation profile; emits organization.updated with the whole profile',
    payload: Joi.object({
      legal_name: name(),
      logo_key: Joi.string().trim().max(500).allow('', null),
      base_currency: Joi.string().trim().length(3),
      timezone: timezone(),
      locale: Joi.string().trim().min(1).max(35),
      week_start: Joi.string().valid(...WEEK_DAYS),
      fiscal_year_start_month: Joi.number().integer().min(1).max(12),
    }),
    run: (request, ctx) => updateOrganization(ctx, request.payload),
  }),
];

/** Locations. */
const locationRoutes = [
  locationFamily.list({
    chain: ['settings.locations.read'],
    description: 'Lists locations by name; q matches the name',
    query: listQuery,
    run: (request, ctx) => listLocations(ctx, request.query.q as string | undefined),
  }),
  locationFamily.post({
    chain: ['settings.locations.create'],
    description: 'Creates a location (name unique in the workspace)',
    payload: Joi.object({ name: name().required(), address: address().allow(null), timezone: timezone().required() }),
    run: (request, ctx) => createLocation(ctx, request.payload),
  }),
  location.get({
    chain: ['settings.locations.read'],
    description: 'Reads a location',
    run: (request, ctx) => locations.require(ctx, request.params.location_id),
  }),
  location.patch({
    chain: ['settings.locations.edit'],
    description: 'Changes the given fields of a location',
    payload: Joi.object({ name: name(), address: address().allow(null), timezone: timezone() }),
    run: (request, ctx) => updateLocation(ctx, request.params.location_id, request.payload),
  }),
  location.delete({
    chain: ['settings.locations.delete'],
    answers: { single: DELETED },
    description: 'Deletes a location',
    run: (request, ctx) => deleteLocation(ctx, request.params.location_id),
  }),
];

/** Working calendars and their holidays. */
const calendarRoutes = [
  calendarFamily.list({
    chain: ['settings.calendars.read'],
    description: 'Lists working calendars by name; q matches the name',
    query: listQuery,
    run: (request, ctx) => listCalendars(ctx, request.query.q as string | undefined),
  }),
  calendarFamily.post({
    chain: ['settings.calendars.create'],
    description: 'Creates a working calendar (Monday to Friday, 8 hours a day unless given)',
    payload: Joi.object({ ...calendarFields, name: name().required() }),
    run: (request, ctx) => createCalendar(ctx, request.payload),
  }),
  calendar.get({
    chain: ['settings.calendars.read'],
    description: 'Reads a working calendar',
    run: (request, ctx) => calendars.require(ctx, request.params.calendar_id),
  }),
  calendar.patch({
    chain: ['settings.calendars.edit'],
    description: 'Changes the given fields of a working calendar',
    payload: Joi.object(calendarFields),
    run: (request, ctx) => updateCalendar(ctx, request.params.calendar_id, request.payload),
  }),
  calendar.delete({
    chain: ['settings.calendars.delete'],
    answers: { single: DELETED },
    description: 'Deletes a working calendar and its holidays',
    run: (request, ctx) => deleteCalendar(ctx, request.params.calendar_id),
  }),
  holidays.list({
    chain: ['settings.calendars.read'],
    description: "Lists a calendar's holidays by date; year= keeps one year",
    query: Joi.object({ year: Joi.number().integer().min(1900).max(2200), page: Joi.any(), per_page: Joi.any() }),
    run: (request, ctx) => listHolidays(ctx, request.params.calendar_id, request.query.year as number | undefined),
  }),
  holidays.post({
    chain: ['settings.calendars.edit'],
    description: 'Adds a holiday to a calendar',
    payload: Joi.object({ date: Joi.calendarDate().required(), name: name().required() }),
    run: (request, ctx) => createHoliday(ctx, request.params.calendar_id, request.payload),
  }),
  holidays.at('/{holiday_id}', { params: Joi.idParams('calendar_id', 'holiday_id') }).delete({
    chain: ['settings.calendars.edit'],
    answers: { single: DELETED },
    description: 'Removes a holiday from a calendar',
    run: (request, ctx) => deleteHoliday(ctx, request.params.calendar_id, request.params.holiday_id),
  }),
  holidays.at('/import').post({
    chain: ['settings.calendars.edit'],
    answers: { single: HOLIDAY_IMPORT },
    description: 'Imports the public holidays of a region and year from date-holidays; a re-import adds nothing',
    payload: Joi.object({ region: Joi.string().trim().min(2).max(20).required(), year: Joi.number().integer().min(1900).max(2200).required() }),
    async run(request, ctx) {
      const result = await importHolidays(ctx, request.params.calendar_id, request.payload);
      return { ...result, created: result.created.map(presentHoliday) };
    },
  }),
];

/** The calling member's preferences. */
const preferenceRoutes = [
  preferences.get({
    chain: ['settings.preferences.read'],
    description: "Reads the calling member's preferences (the defaults until they save)",
    run: (_request, ctx) => readPreferences(ctx),
  }),
  preferences.put({
    chain: ['settings.preferences.edit'],
    description: "Sets the given preferences of the calling member; emits preferences.updated",
    payload: Joi.object({
      language: Joi.string().trim().min(1).max(35),
      timezone: timezone().allow(null),
      date_format: Joi.string().valid(...DATE_FORMATS),
      notification_channels: Joi.array().items(Joi.string().valid(...NOTIFICATION_CHANNELS)).max(NOTIFICATION_CHANNELS.length),
    }),
    run: (request, ctx) => updatePreferences(ctx, request.payload),
  }),
];

/** A member MRN (`mrn:account:member:{uuid}`); whether it names a member of the workspace is the handler's 404. */
const MEMBER_MRN = /^mrn:account:member:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The permission explainer (admins: `settings.explanations.read`, which only owners and admins hold unless a role is given it). */
const explainRoutes = [
  explain.get({
    chain: ['settings.explanations.read'],
    description: "Explains a member's access to an action (a permission key or an operation such as DELETE /tasks/{task_id}): each of the five layers, whether it passes and why, and which decides",
    query: Joi.object({
      member_mrn: Joi.string().trim().pattern(MEMBER_MRN).required().messages({ 'string.pattern.base': '{{#label}} must be a member MRN (mrn:account:member:{id})' }),
      action: Joi.string().trim().min(1).max(300).required(),
    }),
    async run(request, ctx) {
      const memberMrn = request.query.member_mrn as string;
      const explanation = await ctx.members.explain(memberMrn, request.query.action as string);
      if (!explanation) throw new NotFoundError(`member_mrn ${memberMrn} is not a member of this workspace`);
      return explanation;
    },
  }),
];

/** A name keying a part of the document (a location's, a calendar's, a role's). */
const key = (max: number) => Joi.string().min(1).max(max);
const text = (max: number) => Joi.string().trim().min(1).max(max);

/** The configuration document's shape; its values are checked by the services (paths named). */
const documentSchema = Joi.object({
  format: Joi.string().valid(FORMAT).required(),
  exported_from: Joi.any().strip().description('Ignored: where and when the document was exported'),
  organization: Joi.object({
    legal_name: text(200).required(),
    logo_key: Joi.string().trim().max(500).allow('', null).required(),
    base_currency: Joi.string().trim().length(3).required(),
    timezone: text(100).required(),
    locale: text(35).required(),
    week_start: Joi.string().valid(...WEEK_DAYS).required(),
    fiscal_year_start_month: Joi.number().integer().min(1).max(12).required(),
  }).required(),
  locations: Joi.object()
    .pattern(key(200), Joi.object({ timezone: text(100).required(), address: Joi.object(Object.fromEntries(ADDRESS_PARTS.map(([part, max]) => [part, Joi.string().trim().max(max).allow('', null)]))).default({}) }))
    .max(1000)
    .required(),
  calendars: Joi.object()
    .pattern(
      key(200),
      Joi.object({
        working_days: calendarFields.working_days.required(),
        hours_per_day: calendarFields.hours_per_day.required(),
        region: calendarFields.region.required(),
        holidays: Joi.array().items(Joi.object({ date: Joi.calendarDate().required(), name: text(200).required() })).max(1000).default([]),
      }),
    )
    .max(1000)
    .required(),
  roles: Joi.object()
    .pattern(key(100), Joi.object({ permissions: Joi.object().pattern(Joi.string().max(200), Joi.array().items(Joi.string().max(200)).max(500)).max(200).required() }))
    .max(1000)
    .required(),
  apps: Joi.object()
    .pattern(
      key(200),
      Joi.object({
        access_policy: Joi.string().valid('everyone', 'roles', 'approval').required(),
        allowed_roles: Joi.array().items(Joi.string().max(100)).max(200).required(),
        redlist: Joi.array().items(Joi.string().max(100)).max(1000).required(),
        settings: Joi.object().unknown(true).allow(null).required(),
      }),
    )
    .max(500)
    .required(),
});

const exportFamily = routeFamily('/settings/export', { record: SETTINGS_DOCUMENT, links: () => ({ self: '/settings/export' }) });
const imports = routeFamily('/settings/imports', { record: IMPORT_PLAN, links: (plan) => planLinks((plan as { id: string }).id) });

/** A plan's links: itself and its apply. */
function planLinks(id: string) {
  return { self: `/settings/imports/${id}`, apply: `/settings/imports/${id}/apply` };
}

/** Configuration as code: the export document, an import's plan, its apply (decision record new-config-as-code). */
const configurationRoutes = [
  exportFamily.get({
    chain: ['settings.exports.read'],
    description: "Exports the workspace's configuration as one document (wpk.settings/1): the organisation, locations, calendars with their holidays, custom roles and the installed apps' access and settings, by name",
    run: (_request, ctx) => exportDocument(ctx),
  }),
  imports.post({
    chain: ['settings.imports.manage'],
    description: 'Checks a document (400 naming every invalid path, nothing stored) and stores its plan: per part the changes against the workspace now; apply it within an hour',
    payload: Joi.object({ document: documentSchema.required() }),
    run: (request, ctx) => planImport(ctx, request.payload.document),
  }),
  imports.at('/{plan_id}', { params: Joi.idParams('plan_id') }).get({
    chain: ['settings.imports.manage'],
    description: 'Reads a stored plan (its changes, when it expires, whether it was applied)',
    run: (request, ctx) => readPlan(ctx, request.params.plan_id),
  }),
  imports.at('/{plan_id}/apply', { params: Joi.idParams('plan_id') }).post({
    chain: ['settings.imports.manage'],
    description: 'Applies a plan in one transaction (409 when it is stale, expired or applied already); emits import.applied and the records\' own events; recorded in the admin audit',
    run: (request, ctx) => applyPlan(ctx, request.params.plan_id),
  }),
];

/** Every route of the Settings app. */
export const routes = [...organizationRoutes, ...locationRoutes, ...calendarRoutes, ...preferenceRoutes, ...explainRoutes, ...configurationRoutes];
