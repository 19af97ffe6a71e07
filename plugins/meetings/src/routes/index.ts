import { Joi } from '@wpk/sdk';
import { route, routeFamily } from '../kit.js';
import { MEETING_STATUSES, PURPOSES, RSVP_STATUSES } from '../models/index.js';
import { addAttendee, cancelMeeting, createMeeting, listMeetings, readMeeting, removeAttendee, requireVisibleMeeting, respond, updateMeeting } from '../services/meetings.js';
import { completePresignation, createPresignation, downloadFile, listPresignations, revokePresignation } from '../services/presignations.js';
import { presentAttendee } from '../services/present.js';
import { ATTENDEE, ATTENDEE_REMOVED, FILE, FILE_DOWNLOAD, MEETING, PRESIGNATION, PRESIGNATION_WITH_LINK } from './answers.js';

const title = () => Joi.string().trim().min(1).max(200);
const description = () => Joi.string().max(5000).allow('');
const location = () => Joi.string().trim().max(500).allow('');
const email = () => Joi.string().trim().lowercase().max(254).email({ tlds: false });
const attendee = () =>
  Joi.object({ member_mrn: Joi.memberMrn(), email: email(), name: Joi.string().trim().max(200).allow('') })
    .or('member_mrn', 'email')
    .messages({ 'object.missing': '{#label} needs member_mrn or email' });
const mediaType = () => Joi.string().max(255).pattern(/^[\w.+-]+\/[\w.+-]+$/).messages({ 'string.pattern.base': '{#label} must be a media type (type/subtype)' });
const filename = () =>
  Joi.string().trim().min(1).max(255).pattern(/^(?!\.{1,2}$)[^/\\\p{Cc}]+$/u).messages({ 'string.pattern.base': '{#label} must be a file name (no /, \\ or control characters)' });

const meetings = routeFamily('/meetings', { record: MEETING });
const meeting = meetings.at('/{id}', { params: Joi.idParams('id') });
const meetingAttendee = meeting.at('/attendees/{attendee_id}', { params: Joi.idParams('id', 'attendee_id'), record: ATTENDEE });
const presignations = meeting.at('/presignations', { record: PRESIGNATION });

/** Every route of the Meetings app (the manifest's authorization table lists the same). */
export const routes = [
  meetings.list({
    chain: ['meetings.meetings.read'],
    description: 'Lists the meetings the caller organizes or attends, soonest first; from/to: those overlapping the window',
    query: Joi.listQuery({ from: Joi.instant(), to: Joi.instant(), status: Joi.string().valid(...MEETING_STATUSES), role: Joi.string().valid('organizer', 'attendee') }),
    async handler(request, ctx) {
      const { data, count } = await listMeetings(ctx, request.query);
      return ctx.respond.collection(data, count);
    },
  }),
  meetings.post({
    chain: ['meetings.meetings.create'],
    description: 'Schedules a meeting organized by the caller; each attendee with an address is mailed an iCalendar invitation',
    payload: Joi.object({
      title: title().required(),
      description: description(),
      location: location(),
      starts_at: Joi.instant().required(),
      ends_at: Joi.instant().required(),
      attendees: Joi.array().items(attendee()).max(500),
      source_mrn: Joi.mrn().description("What the meeting is for: another app's record (a CRM deal, lead, contact or company shows it on its timeline)"),
    }),
    async handler(request, ctx) {
      const meeting = await createMeeting(ctx, request.payload);
      return ctx.respond.single(await readMeeting(ctx, meeting), { self: `/meetings/${meeting.id}` });
    },
  }),
  meeting.get({
    chain: ['meetings.meetings.read'],
    description: 'Reads a meeting the caller organizes or attends: attendees with their answers, its call, its files',
    async handler(request, ctx) {
      const { meeting } = await requireVisibleMeeting(ctx, request.params.id);
      return ctx.respond.single(await readMeeting(ctx, meeting));
    },
  }),
  meeting.patch({
    chain: ['meetings.meetings.read'],
    description: 'UpdateMeeting: title, description, location, time (the organizer); the attendees are mailed the update (SEQUENCE + 1)',
    payload: Joi.object({ title: title(), description: description(), location: location(), starts_at: Joi.instant(), ends_at: Joi.instant() }).or('title', 'description', 'location', 'starts_at', 'ends_at'),
    run: async (request, ctx) => readMeeting(ctx, await updateMeeting(ctx, request.params.id, request.payload)),
  }),
  meeting.delete({
    chain: ['meetings.meetings.read'],
    description: 'Cancels a meeting (the organizer): the attendees are mailed a CANCEL; it stays readable as cancelled',
    run: async (request, ctx) => readMeeting(ctx, await cancelMeeting(ctx, request.params.id)),
  }),
  meeting.at('/attendees').post({
    chain: ['meetings.meetings.read'],
    answers: { single: ATTENDEE },
    description: 'Invites a member (member_mrn, optionally the email to mail) or an outside address (email); they are mailed the invitation',
    payload: attendee(),
    async handler(request, ctx) {
      return ctx.respond.single(presentAttendee(await addAttendee(ctx, request.params.id, request.payload)));
    },
  }),
  meetingAttendee.patch({
    chain: ['meetings.meetings.read'],
    description: "Answers the invitation (RSVP): the attendee themselves; the organizer records an outside attendee's answer",
    payload: Joi.object({ status: Joi.string().valid(...RSVP_STATUSES).required() }),
    async handler(request, ctx) {
      return ctx.respond.single(presentAttendee(await respond(ctx, request.params.id, request.params.attendee_id, request.payload.status)));
    },
  }),
  meetingAttendee.delete({
    chain: ['meetings.meetings.read'],
    answers: { single: ATTENDEE_REMOVED },
    description: 'Removes an attendee (the organizer): they are mailed a CANCEL naming them (SEQUENCE + 1)',
    run: (request, ctx) => removeAttendee(ctx, request.params.id, request.params.attendee_id),
  }),
  meeting.at('/files/{file_id}', { params: Joi.idParams('id', 'file_id') }).get({
    chain: ['meetings.meetings.read'],
    answers: { single: FILE_DOWNLOAD },
    description: "One of the meeting's files, with a download link valid five minutes",
    run: (request, ctx) => downloadFile(ctx, request.params.id, request.params.file_id),
  }),
  presignations.list({
    chain: ['meetings.presignations.create'],
    description: "Lists a meeting's upload grants, newest first (without their links)",
    query: Joi.listQuery(),
    run: (request, ctx) => listPresignations(ctx, request.params.id),
  }),
  presignations.post({
    chain: ['meetings.presignations.create'],
    answers: { single: PRESIGNATION_WITH_LINK },
    description: 'Hands out an upload grant: a signed PUT link for one file of the declared type and at most size_bytes, until it expires',
    payload: Joi.object({
      purpose: Joi.string().valid(...PURPOSES).required(),
      filename: filename().required(),
      content_type: mediaType().required(),
      size_bytes: Joi.number().integer().min(1).max(10737418240).required(),
      expires_in_seconds: Joi.number().integer().min(1).max(604800),
    }),
    async handler(request, ctx) {
      const grant = await createPresignation(ctx, request.params.id, request.payload);
      return ctx.respond.single(grant, { self: `/presignations/${grant.id}` });
    },
  }),
  route({
    method: 'POST',
    path: '/presignations/{id}/completion',
    chain: ['meetings.presignations.create'],
    answers: { single: FILE },
    description: "Checks the upload made through a grant (there, in time, not revoked) and files it with the meeting; a grant is used once",
    validate: { params: Joi.idParams('id') },
    async handler(request, ctx) {
      return ctx.respond.single(await completePresignation(ctx, request.params.id));
    },
  }),
  route({
    method: 'DELETE',
    path: '/presignations/{id}',
    chain: ['meetings.presignations.create'],
    answers: { single: PRESIGNATION },
    description: "Revokes an open upload grant (its creator, or the meeting's organizer): what arrived through it is deleted",
    validate: { params: Joi.idParams('id') },
    async handler(request, ctx) {
      return ctx.respond.single(await revokePresignation(ctx, request.params.id));
    },
  }),
];
