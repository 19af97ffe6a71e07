import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** The days a week may start on. */
export const WEEK_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

/** The ways a member may be notified. */
export const NOTIFICATION_CHANNELS = ['in_app', 'email', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** The date formats a member may choose. */
export const DATE_FORMATS = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** Where a holiday came from: typed by an admin, or imported from date-holidays. */
export const HOLIDAY_SOURCES = ['manual', 'import'] as const;

/** A postal address; every part is optional text. */
export interface LocationAddress {
  street?: string;
  city?: string;
  region?: string;
  postal_code?: string;
  country?: string;
}

/** The organisation profile: one row per workspace, its id the workspace's. */
export const organizations = defineModel('organizations', {
  id: column.uuid().primaryKey(),
  legal_name: column.string(200),
  logo_key: column.string(500).nullable(),
  base_currency: column.string(3),
  timezone: column.string(100),
  locale: column.string(35),
  week_start: column.enum(WEEK_DAYS, 10),
  fiscal_year_start_month: column.integer(),
  revision: column.integer().default(1),
  updated_by: column.uuid(),
});
export type Organization = DeclaredRow<typeof organizations>;

/** A place the organisation works from (`mrn:settings:location:{id}`). */
export const locations = defineModel('locations', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  address: column.json<LocationAddress>().default({}),
  timezone: column.string(100),
  /** 1 when created, +1 per change: the copies' order (migration 0002). */
  revision: column.integer().default(1),
});
export type Location = DeclaredRow<typeof locations>;

/** A working calendar: the working days (ISO weekday numbers, 1 = Monday) and hours per day. */
export const calendars = defineModel('calendars', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  working_days: column.json<number[]>(),
  hours_per_day: column.double(),
  region: column.string(20).nullable(),
});
export type Calendar = DeclaredRow<typeof calendars>;

/** A public holiday of a calendar. */
export const holidays = defineModel('holidays', {
  id: column.uuid().primaryKey().defaultRandom(),
  calendar_id: column.uuid(),
  date: column.dateOnly(),
  name: column.string(200),
  source: column.enum(HOLIDAY_SOURCES, 10),
});
export type Holiday = DeclaredRow<typeof holidays>;

/** A member's personal preferences (a member without a row has the defaults). */
export const preferences = defineModel('preferences', {
  member_id: column.uuid().primaryKey(),
  language: column.string(35),
  timezone: column.string(100).nullable(),
  date_format: column.enum(DATE_FORMATS, 10),
  notification_channels: column.json<NotificationChannel[]>(),
});
export type Preferences = DeclaredRow<typeof preferences>;

/** A stored plan of a configuration import (migration 0003): applied once, while its fingerprint still matches and before it expires. */
export const importPlans = defineModel('import_plans', {
  id: column.uuid().primaryKey().defaultRandom(),
  fingerprint: column.string(64),
  document: column.json<Record<string, unknown>>(),
  changes: column.json<Record<string, unknown>>(),
  created_by: column.uuid(),
  expires_at: column.date(),
  applied_at: column.date().nullable(),
  applied_by: column.uuid().nullable(),
});
export type ImportPlan = DeclaredRow<typeof importPlans>;

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { organizations, locations, calendars, holidays, preferences, importPlans };

/** The models' type, for typing contexts: `AppContext<Models>`. */
export type Models = typeof models;
