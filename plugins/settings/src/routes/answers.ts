import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { DATE_FORMATS, HOLIDAY_SOURCES, NOTIFICATION_CHANNELS, WEEK_DAYS } from '../models/index.js';

const nullableText = () => Joi.string().allow('', null);
const address = () => recordSchema({ street: nullableText(), city: nullableText(), region: nullableText(), postal_code: nullableText(), country: nullableText() });

/** The organisation profile (services/organization.ts). */
export const ORGANIZATION: JoiObjectSchema = recordSchema({
  legal_name: Joi.string(),
  logo_key: Joi.string().allow(null),
  base_currency: Joi.string().length(3),
  timezone: Joi.string(),
  locale: Joi.string(),
  week_start: Joi.string().valid(...WEEK_DAYS),
  fiscal_year_start_month: Joi.number().integer().min(1).max(12),
  revision: Joi.number().integer().min(0).description('0 while the workspace has the defaults; one more with every change'),
  updated_at: field.instant().allow(null),
}).id('SettingsOrganization');

/** A location (services/present.ts). */
export const LOCATION: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  mrn: Joi.string().pattern(/^mrn:settings:location:/),
  name: Joi.string(),
  address: address(),
  timezone: Joi.string(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('SettingsLocation');

/** A working calendar. */
export const CALENDAR: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  working_days: Joi.array().items(Joi.number().integer().min(1).max(7)),
  hours_per_day: Joi.number(),
  region: Joi.string().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('SettingsCalendar');

/** A holiday of a calendar. */
export const HOLIDAY: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  calendar_id: field.uuid(),
  date: Joi.string().pattern(/^\d{4}-\d{2}-\d{2}$/),
  name: Joi.string(),
  source: Joi.string().valid(...HOLIDAY_SOURCES),
  created_at: field.instant(),
}).id('SettingsHoliday');

/** What an import of holidays answers. */
export const HOLIDAY_IMPORT: JoiObjectSchema = recordSchema({
  region: Joi.string(),
  year: Joi.number().integer(),
  created: Joi.array().items(HOLIDAY),
  skipped: Joi.number().integer().min(0).description('Public holidays of the region and year the calendar had already'),
}).id('SettingsHolidayImport');

/** A member's preferences. */
export const PREFERENCES: JoiObjectSchema = recordSchema({
  member_id: field.uuid(),
  language: Joi.string(),
  timezone: Joi.string().allow(null),
  date_format: Joi.string().valid(...DATE_FORMATS),
  notification_channels: Joi.array().items(Joi.string().valid(...NOTIFICATION_CHANNELS)),
  updated_at: field.instant().allow(null),
}).id('SettingsPreferences');

/** What a delete answers. */
export const DELETED: JoiObjectSchema = recordSchema({ id: field.uuid(), mrn: Joi.string(), deleted: Joi.boolean().valid(true) }, { optional: ['mrn'] }).id('SettingsDeleted');
