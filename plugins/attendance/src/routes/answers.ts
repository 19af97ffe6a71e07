import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';

/**
 * The records the app answers with (services/present.ts builds them), as the routes declare them
 * (`answers`): they go into the OpenAPI document and the typed client, and the test harness
 * checks every answer of the app's tests against them.
 */

export const LOCATION: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  address: Joi.string().allow(null),
  geofence: recordSchema({ latitude: Joi.number(), longitude: Joi.number(), radius_m: Joi.number().integer() }).allow(null).description('The circle a member must be in to clock in or out here; null: none'),
  timezone: Joi.string().allow(null).description("The IANA time zone of the location's days; null: the settings' zone"),
  source: Joi.string().valid('attendance', 'settings').description("settings: the copy of a Settings location (name, address and time zone follow it; attendance adds the geofence); attendance: the app's own"),
  settings_mrn: Joi.string().pattern(/^mrn:settings:location:/).allow(null).description('The Settings location it follows; null for an own location'),
  deleted_at: field.instant().allow(null).description('When Settings deleted it: it takes no clock-ins, its attendances stay'),
  creator_id: field.uuid().allow(null).description('Who created an own location; null for a Settings copy'),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('AttendanceLocation');

export const DELETED_LOCATION: JoiObjectSchema = recordSchema({ id: field.uuid(), name: Joi.string(), deleted: Joi.boolean() }).id('AttendanceDeletedLocation');

const POSITION = recordSchema({ latitude: Joi.number(), longitude: Joi.number(), accuracy_m: Joi.number(), distance_m: Joi.number() }, { optional: ['accuracy_m', 'distance_m'] }).allow(null);

const BREAK = recordSchema({ id: field.uuid(), start_at: field.instant(), end_at: field.optionalInstant(), seconds: field.count() }).id('AttendanceBreak');

export const ATTENDANCE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  member_id: field.uuid(),
  member_name: Joi.string().allow(null),
  location_id: field.uuid().allow(null),
  location_name: Joi.string().allow(null),
  timezone: Joi.string(),
  work_date: field.date().description("The day it counts on: its check-in's date in `timezone`"),
  check_in_at: field.instant(),
  check_out_at: field.optionalInstant(),
  check_in_position: POSITION,
  check_out_position: POSITION,
  open: Joi.boolean(),
  on_break: Joi.boolean(),
  breaks: Joi.array().items(BREAK),
  worked_seconds: field.count(),
  break_seconds: field.count(),
  net_seconds: field.count(),
  source: Joi.string().valid('clock', 'manual'),
  corrected: Joi.boolean(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('AttendanceAttendance');

const TIMES = recordSchema({
  check_in_at: Joi.string(),
  check_out_at: Joi.string().allow(null),
  location_id: field.uuid().allow(null),
  breaks: Joi.array().items(recordSchema({ start_at: Joi.string(), end_at: Joi.string().allow(null) })),
});

export const CORRECTION: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  attendance_id: field.uuid(),
  member_id: field.uuid(),
  kind: Joi.string().valid('edited', 'created'),
  before: TIMES.allow(null),
  after: TIMES,
  changed_fields: Joi.array().items(Joi.string()),
  reason: Joi.string(),
  corrected_by: field.uuid(),
  created_at: field.instant(),
}).id('AttendanceCorrection');

export const ATTENDANCE_DETAIL: JoiObjectSchema = ATTENDANCE.keys({ corrections: Joi.array().items(CORRECTION).required() }).id('AttendanceAttendanceWithCorrections');

export const STATUS: JoiObjectSchema = recordSchema({ member_id: field.uuid(), clocked_in: Joi.boolean(), on_break: Joi.boolean(), attendance: ATTENDANCE.allow(null) }).id('AttendanceStatus');

const DAY = recordSchema({ date: field.date(), attendances: field.count(), worked_seconds: field.count(), break_seconds: field.count(), net_seconds: field.count() });

export const TIMESHEET: JoiObjectSchema = recordSchema({
  member_id: field.uuid(),
  from: field.date(),
  to: field.date(),
  open: Joi.boolean().description('True while one of its attendances is open (it counts up to now)'),
  days: Joi.array().items(DAY),
  totals: recordSchema({ attendances: field.count(), worked_seconds: field.count(), break_seconds: field.count(), net_seconds: field.count() }),
}).id('AttendanceTimesheet');
