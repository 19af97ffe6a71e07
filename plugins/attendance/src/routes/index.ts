import { Joi } from '@wpk/sdk';
import { route, routeFamily } from '../kit.js';
import { clockIn, clockOut, endBreak, listAttendances, readAttendance, startBreak, status } from '../services/attendances.js';
import { addAttendance, correctAttendance, listCorrections } from '../services/corrections.js';
import { createLocation, deleteLocation, listLocations, requireLocation, updateLocation } from '../services/locations.js';
import { presentLocation } from '../services/present.js';
import { exportCsv, timesheet } from '../services/timesheets.js';
import { ATTENDANCE, ATTENDANCE_DETAIL, CORRECTION, DELETED_LOCATION, LOCATION, STATUS, TIMESHEET } from './answers.js';

const locationParams = Joi.object({ id: Joi.id().required() });
const attendanceParams = Joi.object({ attendance_id: Joi.id().required() });

const geofence = Joi.object({
  latitude: Joi.number().min(-90).max(90).required().description('Centre latitude (WGS 84 degrees)'),
  longitude: Joi.number().min(-180).max(180).required().description('Centre longitude (WGS 84 degrees)'),
  radius_m: Joi.number().integer().min(10).max(100_000).required().description('Radius in metres'),
}).allow(null);

const locationFields = {
  address: Joi.string().trim().max(500).allow('', null),
  geofence,
  timezone: Joi.string().trim().max(64).allow('', null).description('An IANA time zone (Europe/Paris); null: the settings\' zone'),
};

/** Where the device says it is: both coordinates or neither; the accuracy radius (metres) is optional. */
const position = {
  latitude: Joi.number().min(-90).max(90),
  longitude: Joi.number().min(-180).max(180),
  accuracy_m: Joi.number().min(0).max(100_000).description('The reported accuracy radius in metres (absent: taken as exact)'),
};

const reason = Joi.string().trim().min(3).max(500).required().description('Why the times are corrected (kept in the audit trail)');
const breakInput = Joi.object({ start_at: Joi.instant().required(), end_at: Joi.instant().required() });
const breaksInput = Joi.array().items(breakInput).max(50).description('Every break of the attendance, replacing the ones it has');

const dateRange = { from: Joi.calendarDate(), to: Joi.calendarDate() };

/** A member filter: a removed member's attendances stay readable (payroll, audits). */
const memberFilter = () => Joi.memberId({ former: true });

const locations = routeFamily('/attendance/locations', { record: LOCATION });
const location = locations.at('/{id}', { params: locationParams });
const attendances = routeFamily('/attendance/attendances', { record: ATTENDANCE });
const attendance = attendances.at('/{attendance_id}', { params: attendanceParams, record: ATTENDANCE_DETAIL });

/** Locations, clocking, breaks, attendances, corrections, timesheets and the CSV export. */
export const routes = [
  locations.list({
    chain: ['attendance.locations.read'],
    description: "Lists work locations by name, the app's own and the Settings app's copies alike; q matches the name or the address; deleted=true lists the Settings locations deleted since (their attendances stay)",
    query: Joi.listQuery({ q: Joi.string().max(200).allow(''), deleted: Joi.boolean() }),
    run: (request, ctx) => listLocations(ctx, request.query as { q?: string; deleted?: boolean }),
  }),
  locations.post({
    chain: ['attendance.locations.manage'],
    description: 'Creates a work location of the app, with a geofence (centre and radius in metres) or none; 409 once the workspace keeps its locations in the Settings app',
    payload: Joi.object({ name: Joi.string().trim().min(1).max(100).required(), ...locationFields }),
    async handler(request, ctx) {
      const location = await createLocation(ctx, request.payload);
      return ctx.respond.single(location, { self: `/attendance/locations/${location.id}` });
    },
  }),
  location.get({
    chain: ['attendance.locations.read'],
    description: 'Reads a work location',
    async handler(request, ctx) {
      const location = presentLocation(await requireLocation(ctx, request.params.id));
      return ctx.respond.single(location, { self: `/attendance/locations/${location.id}` });
    },
  }),
  location.patch({
    chain: ['attendance.locations.manage'],
    description: "Updates the given fields of a work location (UpdateLocation); geofence null removes the fence; a Settings location's name, address and time zone are Settings' (409)",
    payload: Joi.object({ name: Joi.string().trim().min(1).max(100), ...locationFields }),
    async handler(request, ctx) {
      const location = await updateLocation(ctx, request.params.id, request.payload);
      return ctx.respond.single(location, { self: `/attendance/locations/${location.id}` });
    },
  }),
  location.delete({
    chain: ['attendance.locations.manage'],
    answers: { single: DELETED_LOCATION },
    description: "Deletes a work location of the app (409 while someone is clocked in there; 409 for a Settings location: deleted there); past attendances keep its name",
    run: (request, ctx) => deleteLocation(ctx, request.params.id),
  }),
  route({
    method: 'POST',
    path: '/attendance/clock-ins',
    chain: ['attendance.attendances.record'],
    description: "Clocks the caller in now, at a location or none; at a location with a geofence only from inside it (the accuracy rule in docs/apps/attendance.md)",
    answers: { single: ATTENDANCE },
    validate: { payload: Joi.object({ location_id: Joi.id(), ...position }).and('latitude', 'longitude').allow(null) },
    async handler(request, ctx) {
      const attendance = await clockIn(ctx, request.payload ?? {});
      return ctx.respond.single(attendance, { self: `/attendance/attendances/${attendance.id}` });
    },
  }),
  route({
    method: 'POST',
    path: '/attendance/clock-outs',
    chain: ['attendance.attendances.record'],
    description: "Clocks the caller out now (an open break ends with it); inside the location's geofence when it has one",
    answers: { single: ATTENDANCE },
    validate: { payload: Joi.object(position).and('latitude', 'longitude').allow(null) },
    async handler(request, ctx) {
      const attendance = await clockOut(ctx, request.payload ?? {});
      return ctx.respond.single(attendance, { self: `/attendance/attendances/${attendance.id}` });
    },
  }),
  route({
    method: 'POST',
    path: '/attendance/break-starts',
    chain: ['attendance.attendances.record'],
    description: "Starts a break in the caller's open attendance",
    answers: { single: ATTENDANCE },
    validate: { payload: Joi.object({}).allow(null) },
    async handler(_request, ctx) {
      const attendance = await startBreak(ctx);
      return ctx.respond.single(attendance, { self: `/attendance/attendances/${attendance.id}` });
    },
  }),
  route({
    method: 'POST',
    path: '/attendance/break-ends',
    chain: ['attendance.attendances.record'],
    description: "Ends the caller's current break",
    answers: { single: ATTENDANCE },
    validate: { payload: Joi.object({}).allow(null) },
    async handler(_request, ctx) {
      const attendance = await endBreak(ctx);
      return ctx.respond.single(attendance, { self: `/attendance/attendances/${attendance.id}` });
    },
  }),
  route({
    method: 'GET',
    path: '/attendance/status',
    chain: ['attendance.attendances.record'],
    description: 'Whether the caller is clocked in or on a break, with the open attendance',
    answers: { single: STATUS },
    async handler(_request, ctx) {
      return ctx.respond.single(await status(ctx));
    },
  }),
  attendances.list({
    chain: [{ any_of: ['attendance.attendances.read', 'attendance.attendances.record'] }],
    description: "Lists attendances, newest first: the caller's own, or any member's with attendance.attendances.read; from and to bound the work date",
    query: Joi.listQuery({ member_id: memberFilter(), location_id: Joi.id(), ...dateRange, open: Joi.boolean() }),
    run: (request, ctx) => listAttendances(ctx, request.query),
  }),
  attendances.post({
    chain: ['attendance.attendances.manage'],
    answers: { single: ATTENDANCE_DETAIL },
    description: 'Adds an attendance a member did not clock (a manager), closed, with its breaks and the reason; kept in the audit trail',
    payload: Joi.object({
      // A former member too: their last days may need adding before payroll closes.
      member_id: Joi.memberId({ former: true }).required(),
      check_in_at: Joi.instant().required(),
      check_out_at: Joi.instant().required(),
      location_id: Joi.id().allow(null),
      breaks: breaksInput,
      reason,
    }),
    async handler(request, ctx) {
      const attendance = await addAttendance(ctx, request.payload);
      return ctx.respond.single(attendance, { self: `/attendance/attendances/${attendance.id}` });
    },
  }),
  attendance.get({
    chain: [{ any_of: ['attendance.attendances.read', 'attendance.attendances.record'] }],
    description: 'Reads an attendance with its breaks and its corrections',
    async handler(request, ctx) {
      const attendance = await readAttendance(ctx, request.params.attendance_id);
      return ctx.respond.single(attendance, { self: `/attendance/attendances/${attendance.id}` });
    },
  }),
  attendance.patch({
    chain: ['attendance.attendances.manage'],
    description: "Corrects an attendance (a manager): check-in, check-out, location or breaks, with the reason; the times before and after go to the audit trail",
    payload: Joi.object({ check_in_at: Joi.instant(), check_out_at: Joi.instant(), location_id: Joi.id().allow(null), breaks: breaksInput, reason }),
    async handler(request, ctx) {
      const attendance = await correctAttendance(ctx, request.params.attendance_id, request.payload);
      return ctx.respond.single(attendance, { self: `/attendance/attendances/${attendance.id}` });
    },
  }),
  route({
    method: 'GET',
    path: '/attendance/corrections',
    chain: [{ any_of: ['attendance.attendances.read', 'attendance.attendances.record'] }],
    description: "The audit trail of corrections, newest first: of the caller's own attendances, or anyone's with attendance.attendances.read",
    answers: { collection: CORRECTION },
    validate: { query: Joi.listQuery({ member_id: memberFilter(), attendance_id: Joi.id() }) },
    async handler(request, ctx) {
      const { rows, count } = await listCorrections(ctx, request.query);
      return ctx.respond.collection(rows, count);
    },
  }),
  route({
    method: 'GET',
    path: '/attendance/timesheets',
    chain: [{ any_of: ['attendance.attendances.read', 'attendance.attendances.record'] }],
    description: "A member's timesheet (default the caller) for from..to (at most 92 days): worked, break and net seconds per day, and totals",
    answers: { single: TIMESHEET },
    validate: { query: Joi.object({ member_id: memberFilter(), from: Joi.calendarDate().required(), to: Joi.calendarDate().required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await timesheet(ctx, request.query as { member_id?: string; from: string; to: string }));
    },
  }),
  route({
    method: 'GET',
    path: '/attendance/exports',
    chain: ['attendance.attendances.export'],
    description: 'Attendances of from..to (at most a year; optionally one member or location) as a CSV file (RFC 4180)',
    answers: { file: 'text/csv' },
    validate: { query: Joi.object({ from: Joi.calendarDate().required(), to: Joi.calendarDate().required(), member_id: memberFilter(), location_id: Joi.id() }) },
    async handler(request, ctx) {
      const { csv, filename } = await exportCsv(ctx, request.query as { from: string; to: string; member_id?: string; location_id?: string });
      return ctx.respond.file(csv, { contentType: 'text/csv; charset=utf-8', filename });
    },
  }),
];
