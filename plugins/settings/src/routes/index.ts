import { Joi, type JoiObjectSchema } from '@wpk/sdk';
import { route } from '../kit.js';
import { DATE_FORMATS, NOTIFICATION_CHANNELS, WEEK_DAYS } from '../models/index.js';
import { calendars, createCalendar, createHoliday, deleteCalendar, deleteHoliday, importHolidays, listCalendars, listHolidays, updateCalendar } from '../services/calendars.js';
import { createLocation, deleteLocation, listLocations, locations, updateLocation } from '../services/locations.js';
import { presentOrganization, readOrganization, updateOrganization } from '../services/organization.js';
import { readPreferences, updatePreferences } from '../services/preferences.js';
import { presentCalendar, presentHoliday, presentLocation } from '../services/present.js';
import { CALENDAR, DELETED, HOLIDAY, HOLIDAY_IMPORT, LOCATION, ORGANIZATION, PREFERENCES } from './answers.js';

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

/** The organisation profile. */
const organizationRoutes = [
  route({
    method: 'GET',
    path: '/settings/organization',
    chain: ['settings.organizations.read'],
    answers: { single: ORGANIZATION },
    description: "Reads the organisation profile (the defaults while nobody set it)",
    async handler(_request, ctx) {
      return ctx.respond.single(presentOrganization(ctx, await readOrganization(ctx)), { self: '/settings/organization' });
    },
  }),
  route({
    method: 'PUT',
    path: '/settings/organization',
    chain: ['settings.organizations.edit'],
    answers: { single: ORGANIZATION },
    description: 'Sets the given fields of the organisation profile; emits organization.updated with the whole profile',
    validate: {
      payload: Joi.object({
        legal_name: name(),
        logo_key: Joi.string().trim().max(500).allow('', null),
        base_currency: Joi.string().trim().length(3),
        timezone: timezone(),
        locale: Joi.string().trim().min(1).max(35),
        week_start: Joi.string().valid(...WEEK_DAYS),
        fiscal_year_start_month: Joi.number().integer().min(1).max(12),
      }),
    },
    async handler(request, ctx) {
      return ctx.respond.single(await updateOrganization(ctx, request.payload), { self: '/settings/organization' });
    },
  }),
];

/** Locations. */
const locationRoutes = [
  route({
    method: 'GET',
    path: '/settings/locations',
    chain: ['settings.locations.read'],
    answers: { collection: LOCATION },
    description: 'Lists locations by name; q matches the name',
    validate: { query: listQuery },
    async handler(request, ctx) {
      const { rows, count } = await listLocations(ctx, request.query.q as string | undefined);
      return ctx.respond.collection(rows.map(presentLocation), count);
    },
  }),
  route({
    method: 'POST',
    path: '/settings/locations',
    chain: ['settings.locations.create'],
    answers: { single: LOCATION },
    description: 'Creates a location (name unique in the workspace)',
    validate: { payload: Joi.object({ name: name().required(), address: address().allow(null), timezone: timezone().required() }) },
    async handler(request, ctx) {
      const location = await createLocation(ctx, request.payload);
      return ctx.respond.single(presentLocation(location), { self: `/settings/locations/${location.id}` });
    },
  }),
  route({
    method: 'GET',
    path: '/settings/locations/{location_id}',
    chain: ['settings.locations.read'],
    answers: { single: LOCATION },
    description: 'Reads a location',
    validate: { params: locationParams },
    async handler(request, ctx) {
      const location = await locations.require(ctx, request.params.location_id);
      return ctx.respond.single(presentLocation(location), { self: `/settings/locations/${location.id}` });
    },
  }),
  route({
    method: 'PATCH',
    path: '/settings/locations/{location_id}',
    chain: ['settings.locations.edit'],
    answers: { single: LOCATION },
    description: 'Changes the given fields of a location',
    validate: { params: locationParams, payload: Joi.object({ name: name(), address: address().allow(null), timezone: timezone() }) },
    async handler(request, ctx) {
      const location = await updateLocation(ctx, request.params.location_id, request.payload);
      return ctx.respond.single(presentLocation(location), { self: `/settings/locations/${location.id}` });
    },
  }),
  route({
    method: 'DELETE',
    path: '/settings/locations/{location_id}',
    chain: ['settings.locations.delete'],
    answers: { single: DELETED },
    description: 'Deletes a location',
    validate: { params: locationParams },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteLocation(ctx, request.params.location_id));
    },
  }),
];

/** Working calendars and their holidays. */
const calendarRoutes = [
  route({
    method: 'GET',
    path: '/settings/calendars',
    chain: ['settings.calendars.read'],
    answers: { collection: CALENDAR },
    description: 'Lists working calendars by name; q matches the name',
    validate: { query: listQuery },
    async handler(request, ctx) {
      const { rows, count } = await listCalendars(ctx, request.query.q as string | undefined);
      return ctx.respond.collection(rows.map(presentCalendar), count);
    },
  }),
  route({
    method: 'POST',
    path: '/settings/calendars',
    chain: ['settings.calendars.create'],
    answers: { single: CALENDAR },
    description: 'Creates a working calendar (Monday to Friday, 8 hours a day unless given)',
    validate: { payload: Joi.object({ ...calendarFields, name: name().required() }) },
    async handler(request, ctx) {
      const calendar = await createCalendar(ctx, request.payload);
      return ctx.respond.single(presentCalendar(calendar), { self: `/settings/calendars/${calendar.id}` });
    },
  }),
  route({
    method: 'GET',
    path: '/settings/calendars/{calendar_id}',
    chain: ['settings.calendars.read'],
    answers: { single: CALENDAR },
    description: 'Reads a working calendar',
    validate: { params: calendarParams },
    async handler(request, ctx) {
      const calendar = await calendars.require(ctx, request.params.calendar_id);
      return ctx.respond.single(presentCalendar(calendar), { self: `/settings/calendars/${calendar.id}` });
    },
  }),
  route({
    method: 'PATCH',
    path: '/settings/calendars/{calendar_id}',
    chain: ['settings.calendars.edit'],
    answers: { single: CALENDAR },
    description: 'Changes the given fields of a working calendar',
    validate: { params: calendarParams, payload: Joi.object(calendarFields) },
    async handler(request, ctx) {
      const calendar = await updateCalendar(ctx, request.params.calendar_id, request.payload);
      return ctx.respond.single(presentCalendar(calendar), { self: `/settings/calendars/${calendar.id}` });
    },
  }),
  route({
    method: 'DELETE',
    path: '/settings/calendars/{calendar_id}',
    chain: ['settings.calendars.delete'],
    answers: { single: DELETED },
    description: 'Deletes a working calendar and its holidays',
    validate: { params: calendarParams },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteCalendar(ctx, request.params.calendar_id));
    },
  }),
  route({
    method: 'GET',
    path: '/settings/calendars/{calendar_id}/holidays',
    chain: ['settings.calendars.read'],
    answers: { collection: HOLIDAY },
    description: "Lists a calendar's holidays by date; year= keeps one year",
    validate: { params: calendarParams, query: Joi.object({ year: Joi.number().integer().min(1900).max(2200), page: Joi.any(), per_page: Joi.any() }) },
    async handler(request, ctx) {
      const { rows, count } = await listHolidays(ctx, request.params.calendar_id, request.query.year as number | undefined);
      return ctx.respond.collection(rows.map(presentHoliday), count);
    },
  }),
  route({
    method: 'POST',
    path: '/settings/calendars/{calendar_id}/holidays',
    chain: ['settings.calendars.edit'],
    answers: { single: HOLIDAY },
    description: 'Adds a holiday to a calendar',
    validate: { params: calendarParams, payload: Joi.object({ date: Joi.calendarDate().required(), name: name().required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(presentHoliday(await createHoliday(ctx, request.params.calendar_id, request.payload)));
    },
  }),
  route({
    method: 'DELETE',
    path: '/settings/calendars/{calendar_id}/holidays/{holiday_id}',
    chain: ['settings.calendars.edit'],
    answers: { single: DELETED },
    description: 'Removes a holiday from a calendar',
    validate: { params: Joi.idParams('calendar_id', 'holiday_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteHoliday(ctx, request.params.calendar_id, request.params.holiday_id));
    },
  }),
  route({
    method: 'POST',
    path: '/settings/calendars/{calendar_id}/holidays/import',
    chain: ['settings.calendars.edit'],
    answers: { single: HOLIDAY_IMPORT },
    description: 'Imports the public holidays of a region and year from date-holidays; a re-import adds nothing',
    validate: { params: calendarParams, payload: Joi.object({ region: Joi.string().trim().min(2).max(20).required(), year: Joi.number().integer().min(1900).max(2200).required() }) },
    async handler(request, ctx) {
      const result = await importHolidays(ctx, request.params.calendar_id, request.payload);
      return ctx.respond.single({ ...result, created: result.created.map(presentHoliday) });
    },
  }),
];

/** The calling member's preferences. */
const preferenceRoutes = [
  route({
    method: 'GET',
    path: '/settings/preferences',
    chain: ['settings.preferences.read'],
    answers: { single: PREFERENCES },
    description: "Reads the calling member's preferences (the defaults until they save)",
    async handler(_request, ctx) {
      return ctx.respond.single(await readPreferences(ctx), { self: '/settings/preferences' });
    },
  }),
  route({
    method: 'PUT',
    path: '/settings/preferences',
    chain: ['settings.preferences.edit'],
    answers: { single: PREFERENCES },
    description: "Sets the given preferences of the calling member; emits preferences.updated",
    validate: {
      payload: Joi.object({
        language: Joi.string().trim().min(1).max(35),
        timezone: timezone().allow(null),
        date_format: Joi.string().valid(...DATE_FORMATS),
        notification_channels: Joi.array().items(Joi.string().valid(...NOTIFICATION_CHANNELS)).max(NOTIFICATION_CHANNELS.length),
      }),
    },
    async handler(request, ctx) {
      return ctx.respond.single(await updatePreferences(ctx, request.payload), { self: '/settings/preferences' });
    },
  }),
];

/** Every route of the Settings app. */
export const routes = [...organizationRoutes, ...locationRoutes, ...calendarRoutes, ...preferenceRoutes];
