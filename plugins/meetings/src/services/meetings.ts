import { ConflictError, conflictOnDuplicate, ForbiddenError, InvalidError, isUuid, memberIdFromMrn, memberMrn, NotFoundError, Op, type SearchDocument } from '@wpk/sdk';
import { resource, type MeetingsBaseContext, type MeetingsContext, type MeetingsEvent } from '../kit.js';
import type { Attendee, Meeting, MeetingStatus } from '../models/index.js';
import { mailMeeting, recipientsOf } from './invitations.js';
import { meetingMachine } from './machines.js';
import { meetingMrnOf, presentMeeting } from './present.js';

/** The longest meeting, in milliseconds (14 days). */
export const MAX_DURATION_MS = 14 * 24 * 3600 * 1000;

/** An attendee as a request names it: a member (optionally with the address to mail), or an outside address. */
export interface AttendeeInput {
  member_mrn?: string;
  email?: string;
  name?: string;
}

/** The search document of a meeting: found by its organizer and member attendees only. */
export function meetingDocument(meeting: Meeting, memberIds: string[]): SearchDocument {
  return {
    type: 'meeting',
    id: meeting.id,
    badge: meeting.status === 'cancelled' ? 'Cancelled' : '',
    title: meeting.title,
    subtitle: `${meeting.starts_at.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    url: `/meetings/${meeting.id}`,
    names: [meeting.title],
    details: [meeting.description.slice(0, 2000), meeting.location],
    readers: [meeting.organizer_id, ...memberIds].slice(0, 1000),
  };
}

/** The workspace's meetings, soonest first: get-or-404 and the keyset walk of a re-index (who may see one is the services' rule). */
export const meetings = resource({ model: 'meetings', label: 'Meeting', order: [['starts_at', 'ASC'], ['id', 'ASC']] });

/** The meeting's attendees, in invitation order. */
export function attendeesOf(ctx: MeetingsBaseContext, meetingId: string): Promise<Attendee[]> {
  return ctx.db.attendees.findAll({ where: { meeting_id: meetingId }, order: [['position', 'ASC'], ['id', 'ASC']] });
}

/** The member ids among the attendees, in invitation order. */
function memberIdsOf(attendees: Attendee[]): string[] {
  return attendees.flatMap((attendee) => (attendee.member_id ? [attendee.member_id] : []));
}

/** The join URL of the meeting's call, when the calls app has told us. */
export async function joinUrlOf(ctx: MeetingsBaseContext, meetingId: string): Promise<string | null> {
  const call = await ctx.db.meetingCalls.findOne({ where: { meeting_id: meetingId }, order: [['created_at', 'DESC'], ['call_id', 'ASC']] });
  return call?.join_url ?? null;
}

/** The payload of `meeting.scheduled` and `meeting.updated`: exactly the fields the calls app reads. */
function callPayload(meeting: Meeting, attendees: Attendee[]) {
  return {
    meeting_id: meeting.id,
    meeting_mrn: meetingMrnOf(meeting.id),
    title: meeting.title,
    starts_at: meeting.starts_at.toISOString(),
    ends_at: meeting.ends_at.toISOString(),
    organizer_mrn: memberMrn(meeting.organizer_id),
    attendee_mrns: memberIdsOf(attendees).map(memberMrn),
  };
}

/** Stages `meeting.updated` and re-indexes the meeting (its attendees may have changed). */
export async function meetingChanged(ctx: MeetingsBaseContext, meeting: Meeting): Promise<void> {
  const attendees = await attendeesOf(ctx, meeting.id);
  ctx.events.stage('core.meetings.meeting.updated', callPayload(meeting, attendees));
  ctx.search.upsert(meetingDocument(meeting, memberIdsOf(attendees)));
}

/** The meeting, or 404. */
export function requireMeeting(ctx: MeetingsBaseContext, meetingId: string, lock = false): Promise<Meeting> {
  return meetings.require(ctx, meetingId, lock ? { lock: 'update' } : {});
}

/** What the caller is to a meeting. */
export interface Standing {
  organizer: boolean;
  attendee: Attendee | null;
  manager: boolean;
}

/** A meeting the caller organizes or attends (or any, with `meetings.meetings.manage`); others' are a 404. */
export async function requireVisibleMeeting(ctx: MeetingsContext, meetingId: string, lock = false): Promise<{ meeting: Meeting; standing: Standing }> {
  const meeting = await requireMeeting(ctx, meetingId, lock);
  const attendee = await ctx.db.attendees.findOne({ where: { meeting_id: meeting.id, member_id: ctx.member.id } });
  const standing = { organizer: meeting.organizer_id === ctx.member.id, attendee, manager: ctx.permissions.has('meetings.meetings.manage') };
  if (!standing.organizer && !attendee && !standing.manager) throw new NotFoundError(`Meeting ${meetingId} not found`);
  return { meeting, standing };
}

/** Organizers (and holders of `meetings.meetings.manage`) change a meeting and its attendees. */
export function assertOrganizer(standing: Standing, action: string): void {
  if (!standing.organizer && !standing.manager) throw new ForbiddenError(`Only the meeting's organizer may ${action}`);
}

/** A cancelled meeting changes no more (cancelling it again is the machine's refusal). */
export function assertScheduled(meeting: Meeting): void {
  if (meeting.status === 'cancelled') throw new ConflictError(`Meeting ${meeting.title} is cancelled`);
}

/** The meeting as the API answers it. */
export async function readMeeting(ctx: MeetingsBaseContext, meeting: Meeting) {
  const attendees = await attendeesOf(ctx, meeting.id);
  const call = await ctx.db.meetingCalls.findOne({ where: { meeting_id: meeting.id }, order: [['created_at', 'DESC'], ['call_id', 'ASC']] });
  const files = await ctx.db.meetingFiles.findAll({ where: { meeting_id: meeting.id }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  return presentMeeting(meeting, attendees, call, files);
}

function checkTimes(starts: Date, ends: Date): void {
  if (ends.getTime() <= starts.getTime()) throw new InvalidError('ends_at must be after starts_at');
  if (ends.getTime() - starts.getTime() > MAX_DURATION_MS) throw new InvalidError('ends_at: a meeting lasts at most 14 days');
}

/** Checks one attendee input (the route checked that a `member_mrn` names a member of the workspace); answers what to store. */
function attendeeRow(meeting: { organizer_id: string }, input: AttendeeInput, field: string) {
  const email = input.email?.toLowerCase() ?? null;
  const name = input.name?.trim() || null;
  if (input.member_mrn !== undefined) {
    const memberId = memberIdFromMrn(input.member_mrn)!.toLowerCase();
    if (memberId === meeting.organizer_id) throw new InvalidError(`${field}.member_mrn: the organizer attends already`);
    return { member_id: memberId, email, name };
  }
  if (email === null) throw new InvalidError(`${field} needs member_mrn or email`);
  return { member_id: null, email, name };
}

function duplicateMessage(field: string, row: { member_id: string | null; email: string | null }): string {
  return `${field}: ${row.member_id ? memberMrn(row.member_id) : row.email} is invited already`;
}

export interface CreateMeetingInput {
  title: string;
  description?: string;
  location?: string;
  starts_at: string;
  ends_at: string;
  attendees?: AttendeeInput[];
  /** What the meeting is for (another app's record), kept as given. */
  source_mrn?: string;
}

/**
 * Schedules a meeting organized by the caller, invites its attendees (each mailed an iCalendar
 * REQUEST, SEQUENCE 0) and emits `meeting.scheduled` (the calls app schedules the call).
 */
export async function createMeeting(ctx: MeetingsContext, input: CreateMeetingInput): Promise<Meeting> {
  const starts = new Date(input.starts_at);
  const ends = new Date(input.ends_at);
  checkTimes(starts, ends);
  const list = input.attendees ?? [];
  if (list.length > ctx.settings.max_attendees) throw new InvalidError(`attendees: a meeting has at most ${ctx.settings.max_attendees} attendees`);
  const rows = [];
  const seen = new Set<string>();
  for (const [index, entry] of list.entries()) {
    const row = attendeeRow({ organizer_id: ctx.member.id }, entry, `attendees[${index}]`);
    const key = row.member_id ?? row.email!;
    if (seen.has(key)) throw new InvalidError(`attendees[${index}]: ${row.member_id ? memberMrn(key) : key} is named twice`);
    seen.add(key);
    rows.push(row);
  }
  const meeting = await ctx.db.meetings.create({
    title: input.title.trim(),
    description: input.description ?? '',
    location: input.location?.trim() ?? '',
    starts_at: starts,
    ends_at: ends,
    organizer_id: ctx.member.id,
    organizer_name: ctx.member.name.slice(0, 200),
    organizer_email: ctx.member.email.toLowerCase(),
    status: meetingMachine.initial,
    sequence: 0,
    source_mrn: input.source_mrn ?? null,
  });
  const attendees: Attendee[] = [];
  for (const [index, row] of rows.entries()) attendees.push(await ctx.db.attendees.create({ meeting_id: meeting.id, ...row, position: index, status: 'needs_action', added_by: ctx.member.id }));
  ctx.events.stage('core.meetings.meeting.scheduled', { ...callPayload(meeting, attendees), ...(meeting.source_mrn ? { source_mrn: meeting.source_mrn } : {}) });
  for (const attendee of attendees) {
    ctx.events.stage('core.meetings.attendee.added', { meeting_id: meeting.id, attendee_id: attendee.id, ...(attendee.member_id ? { member_mrn: memberMrn(attendee.member_id) } : {}), added_by_mrn: ctx.member.mrn });
  }
  const recipients = await recipientsOf(ctx, attendees);
  mailMeeting(ctx, meeting, 'invitation', recipients, recipients, null);
  ctx.search.upsert(meetingDocument(meeting, memberIdsOf(attendees)));
  return meeting;
}

export interface MeetingListQuery {
  from?: string;
  to?: string;
  status?: MeetingStatus;
  role?: 'organizer' | 'attendee';
}

/** The meetings the caller organizes or attends (every one with `meetings.meetings.manage` unless `role` narrows), soonest first. */
export async function listMeetings(ctx: MeetingsContext, query: MeetingListQuery) {
  const attending = (await ctx.db.attendees.findAll({ where: { member_id: ctx.member.id } })).map((row) => row.meeting_id);
  const conditions: Array<Record<string | symbol, unknown>> = [];
  if (query.role === 'organizer') conditions.push({ organizer_id: ctx.member.id });
  else if (query.role === 'attendee') conditions.push({ id: { [Op.in]: attending } });
  else if (!ctx.permissions.has('meetings.meetings.manage')) conditions.push({ [Op.or]: [{ organizer_id: ctx.member.id }, { id: { [Op.in]: attending } }] });
  if (query.from) conditions.push({ ends_at: { [Op.gt]: new Date(query.from) } });
  if (query.to) conditions.push({ starts_at: { [Op.lt]: new Date(query.to) } });
  if (query.status) conditions.push({ status: query.status });
  const { rows, count } = await ctx.db.meetings.findAndCountAll({ where: { [Op.and]: conditions }, order: [['starts_at', 'ASC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
  const data = [];
  for (const meeting of rows) data.push(await readMeeting(ctx, meeting));
  return { data, count };
}

export interface UpdateMeetingInput {
  title?: string;
  description?: string;
  location?: string;
  starts_at?: string;
  ends_at?: string;
}

/**
 * UpdateMeeting: the organizer changes the title, description, place or time. A change raises
 * the SEQUENCE by one and mails every attendee the updated REQUEST; `meeting.updated` follows.
 */
export async function updateMeeting(ctx: MeetingsContext, meetingId: string, input: UpdateMeetingInput): Promise<Meeting> {
  const { meeting, standing } = await requireVisibleMeeting(ctx, meetingId, true);
  assertOrganizer(standing, 'change it');
  assertScheduled(meeting);
  const starts = input.starts_at !== undefined ? new Date(input.starts_at) : meeting.starts_at;
  const ends = input.ends_at !== undefined ? new Date(input.ends_at) : meeting.ends_at;
  checkTimes(starts, ends);
  const changes: Partial<Meeting> = {};
  if (input.title !== undefined && input.title.trim() !== meeting.title) changes.title = input.title.trim();
  if (input.description !== undefined && input.description !== meeting.description) changes.description = input.description;
  if (input.location !== undefined && input.location.trim() !== meeting.location) changes.location = input.location.trim();
  if (starts.getTime() !== meeting.starts_at.getTime()) changes.starts_at = starts;
  if (ends.getTime() !== meeting.ends_at.getTime()) changes.ends_at = ends;
  if (Object.keys(changes).length === 0) return meeting;
  await ctx.db.meetings.update({ ...changes, sequence: meeting.sequence + 1, updated_at: new Date() }, { where: { id: meeting.id } });
  const updated = await meetings.require(ctx, meeting.id);
  await meetingChanged(ctx, updated);
  const recipients = await recipientsOf(ctx, await attendeesOf(ctx, meeting.id));
  mailMeeting(ctx, updated, 'update', recipients, recipients, await joinUrlOf(ctx, meeting.id));
  return updated;
}

/**
 * Cancels a meeting (DELETE): it stays readable as `cancelled`; every attendee is mailed a
 * CANCEL (SEQUENCE one higher, STATUS:CANCELLED) and `meeting.cancelled` tells the calls app.
 */
export async function cancelMeeting(ctx: MeetingsContext, meetingId: string): Promise<Meeting> {
  const { meeting, standing } = await requireVisibleMeeting(ctx, meetingId, true);
  assertOrganizer(standing, 'cancel it');
  const { to, event } = meetingMachine.move(meeting.status, 'cancel');
  await ctx.db.meetings.update({ status: to, cancelled_at: new Date(), sequence: meeting.sequence + 1, updated_at: new Date() }, { where: { id: meeting.id } });
  const cancelled = await meetings.require(ctx, meeting.id);
  ctx.events.stage(event as MeetingsEvent, { meeting_id: meeting.id, meeting_mrn: meetingMrnOf(meeting.id) });
  const attendees = await attendeesOf(ctx, meeting.id);
  const recipients = await recipientsOf(ctx, attendees);
  mailMeeting(ctx, cancelled, 'cancellation', recipients, recipients, null);
  ctx.search.upsert(meetingDocument(cancelled, memberIdsOf(attendees)));
  return cancelled;
}

/**
 * Invites one more attendee (the organizer): mailed the current REQUEST (SEQUENCE unchanged: the
 * meeting itself did not change). A member attendee changes the call's participants: `meeting.updated`.
 */
export async function addAttendee(ctx: MeetingsContext, meetingId: string, input: AttendeeInput): Promise<Attendee> {
  const { meeting, standing } = await requireVisibleMeeting(ctx, meetingId, true);
  assertOrganizer(standing, 'invite attendees');
  assertScheduled(meeting);
  const row = attendeeRow(meeting, input, 'attendee');
  const existing = await attendeesOf(ctx, meeting.id);
  if (existing.some((attendee) => (row.member_id ? attendee.member_id === row.member_id : attendee.member_id === null && attendee.email === row.email))) throw new ConflictError(duplicateMessage('attendee', row));
  if (existing.length >= ctx.settings.max_attendees) throw new InvalidError(`A meeting has at most ${ctx.settings.max_attendees} attendees`);
  const position = existing.reduce((most, attendee) => Math.max(most, attendee.position + 1), 0);
  const attendee = await conflictOnDuplicate(ctx.db.attendees.create({ meeting_id: meeting.id, ...row, position, status: 'needs_action', added_by: ctx.member.id }), duplicateMessage('attendee', row));
  ctx.events.stage('core.meetings.attendee.added', { meeting_id: meeting.id, attendee_id: attendee.id, ...(attendee.member_id ? { member_mrn: memberMrn(attendee.member_id) } : {}), added_by_mrn: ctx.member.mrn });
  if (attendee.member_id) await meetingChanged(ctx, meeting);
  const all = await recipientsOf(ctx, [...existing, attendee]);
  mailMeeting(ctx, meeting, 'invitation', all.filter((recipient) => recipient.attendee.id === attendee.id), all, await joinUrlOf(ctx, meeting.id));
  return attendee;
}

async function requireAttendee(ctx: MeetingsBaseContext, meetingId: string, attendeeId: string): Promise<Attendee> {
  const attendee = isUuid(attendeeId) ? await ctx.db.attendees.findOne({ where: { meeting_id: meetingId, id: attendeeId } }) : null;
  if (!attendee) throw new NotFoundError(`Attendee ${attendeeId} not found in this meeting`);
  return attendee;
}

/** An attendee answers the invitation; the organizer records an outside attendee's answer. */
export async function respond(ctx: MeetingsContext, meetingId: string, attendeeId: string, status: Attendee['status']): Promise<Attendee> {
  const { meeting, standing } = await requireVisibleMeeting(ctx, meetingId, true);
  const attendee = await requireAttendee(ctx, meeting.id, attendeeId);
  if (attendee.member_id ? attendee.member_id !== ctx.member.id : !standing.organizer && !standing.manager) {
    throw new ForbiddenError(attendee.member_id ? 'Only the attendee may answer their invitation' : "Only the meeting's organizer may record an outside attendee's answer");
  }
  assertScheduled(meeting);
  if (attendee.status === status) return attendee;
  await ctx.db.attendees.update({ status, responded_at: new Date(), updated_at: new Date() }, { where: { id: attendee.id } });
  ctx.events.stage('core.meetings.attendee.responded', { meeting_id: meeting.id, attendee_id: attendee.id, ...(attendee.member_id ? { member_mrn: memberMrn(attendee.member_id) } : {}), status, responded_by_mrn: ctx.member.mrn });
  return (await ctx.db.attendees.findOne({ where: { id: attendee.id } }))!;
}

/**
 * Removes an attendee (the organizer): they are mailed a CANCEL naming them (SEQUENCE one
 * higher); a member attendee leaving changes the call's participants (`meeting.updated`).
 */
export async function removeAttendee(ctx: MeetingsContext, meetingId: string, attendeeId: string) {
  const { meeting, standing } = await requireVisibleMeeting(ctx, meetingId, true);
  assertOrganizer(standing, 'remove attendees');
  const attendee = await requireAttendee(ctx, meeting.id, attendeeId);
  const [recipient] = await recipientsOf(ctx, [attendee]);
  await ctx.db.attendees.destroy({ where: { id: attendee.id } });
  ctx.events.stage('core.meetings.attendee.removed', { meeting_id: meeting.id, attendee_id: attendee.id, ...(attendee.member_id ? { member_mrn: memberMrn(attendee.member_id) } : {}), removed_by_mrn: ctx.member.mrn });
  let current = meeting;
  if (meeting.status === 'scheduled') {
    await ctx.db.meetings.update({ sequence: meeting.sequence + 1, updated_at: new Date() }, { where: { id: meeting.id } });
    current = await meetings.require(ctx, meeting.id);
    if (attendee.member_id) await meetingChanged(ctx, current);
    if (recipient) mailMeeting(ctx, current, 'removal', [recipient], [recipient], null);
  }
  return { meeting_id: meeting.id, attendee_id: attendee.id, removed: true as const, sequence: current.sequence };
}
