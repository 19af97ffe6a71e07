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

/** A member as the explainer names them. */
const EXPLAINED_MEMBER: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  mrn: Joi.string().pattern(/^mrn:account:member:/),
  name: Joi.string(),
  email: Joi.string(),
  platform_role: Joi.string().valid('owner', 'admin', 'member'),
  active: Joi.boolean().description('False once the member was removed from the workspace'),
});

/** One of the five access layers as the explainer judged it. */
const LAYER_VERDICT: JoiObjectSchema = recordSchema({
  layer: Joi.number().integer().valid(1, 2, 3, 4, 5),
  name: Joi.string().valid('authentication', 'membership', 'platform_role', 'app_access', 'app_permission'),
  passed: Joi.boolean().allow(null).description('null: not judged (layer 1, authentication is per request) or not applied (layer 3 on an app action)'),
  reason: Joi.string().description('Why, in words an admin can read'),
}).id('SettingsAccessLayer');

/** The permission explainer's answer (ctx.members.explain). */
export const EXPLANATION: JoiObjectSchema = recordSchema({
  member: EXPLAINED_MEMBER,
  action: Joi.string(),
  app: Joi.string().description("The namespace of the action's app"),
  operation: Joi.string().allow(null).description('The operation the action resolved to (`DELETE /tasks/{task_id}`); null for a permission key'),
  chain: Joi.array().items(Joi.any()).description("The chain layer 5 judged (the operation's, or the one key)"),
  layers: Joi.array().items(LAYER_VERDICT).length(5),
  decision: Joi.string().valid('allowed', 'refused', 'depends_on_record'),
  decided_by: Joi.number().integer().valid(1, 2, 3, 4, 5).allow(null).description('The first layer that refuses (or leaves it to the record); null when allowed'),
}).id('SettingsAccessExplanation');

/** A part of the document keyed by name (locations, calendars, roles, apps): any names, each an object. */
const byName = () => Joi.object().unknown(true);

/** The configuration document (`GET /settings/export`, services/configuration.ts). */
export const SETTINGS_DOCUMENT: JoiObjectSchema = recordSchema({
  format: Joi.string().valid('wpk.settings/1'),
  organization: Joi.object().unknown(true).description('The organisation profile (no revision, no dates)'),
  locations: byName().description('Locations by name: timezone, address (its non-empty parts)'),
  calendars: byName().description('Working calendars by name: working_days, hours_per_day, region, holidays [{date, name}]'),
  roles: byName().description('Custom roles by name: permissions by app namespace'),
  apps: byName().description('Installed apps by namespace: access_policy, allowed_roles and redlist (role names, member MRNs), settings'),
}).id('SettingsDocument');

/** One change of a plan. */
const CHANGE: JoiObjectSchema = recordSchema(
  {
    path: Joi.string().description('organization, locations.{name}, calendars.{name}, roles.{name}, apps.{namespace}.access or apps.{namespace}.settings'),
    op: Joi.string().valid('create', 'update', 'delete'),
    fields: Joi.array().items(Joi.string()).description('What an update changes'),
  },
  { optional: ['fields'] },
).id('SettingsImportChange');

/** One part of a plan. */
const PLAN_PART: JoiObjectSchema = recordSchema({ changes: Joi.array().items(CHANGE), unchanged: Joi.number().integer().min(0).description('Entries of the part the import leaves as they are') });

/** A stored plan of an import (`POST /settings/imports`), and what its apply answers. */
export const IMPORT_PLAN: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  organization: PLAN_PART,
  locations: PLAN_PART,
  calendars: PLAN_PART,
  roles: PLAN_PART,
  apps: PLAN_PART,
  total_changes: Joi.number().integer().min(0),
  expires_at: field.instant(),
  applied_at: field.instant().allow(null),
}).id('SettingsImportPlan');
