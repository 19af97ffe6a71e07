import { formatMrn, memberMrn } from '@wpk/sdk';
import type { Attendee, Meeting, MeetingCall, MeetingFile, Presignation } from '../models/index.js';

/** `mrn:meetings:meeting:{id}`: how other apps (the calls app's `source_mrn`) name a meeting. */
export function meetingMrnOf(meetingId: string): string {
  return formatMrn('meetings', 'meeting', meetingId);
}

export function presentAttendee(attendee: Attendee) {
  return {
    id: attendee.id,
    meeting_id: attendee.meeting_id,
    member_mrn: attendee.member_id ? memberMrn(attendee.member_id) : null,
    email: attendee.email,
    name: attendee.name,
    status: attendee.status,
    responded_at: attendee.responded_at,
    added_by_mrn: memberMrn(attendee.added_by),
    added_at: attendee.created_at,
  };
}

export function presentCall(call: MeetingCall | null) {
  return call ? { call_id: call.call_id, join_url: call.join_url, scheduled_at: call.scheduled_at } : null;
}

export function presentFile(file: MeetingFile) {
  return {
    id: file.id,
    meeting_id: file.meeting_id,
    presignation_id: file.presignation_id,
    purpose: file.purpose,
    filename: file.filename,
    content_type: file.content_type,
    size_bytes: Number(file.size_bytes),
    sha256: file.sha256,
    uploaded_by_mrn: memberMrn(file.uploaded_by),
    uploaded_at: file.created_at,
  };
}

/** A meeting as the API answers it: with its attendees (in invitation order), its call and its files. */
export function presentMeeting(meeting: Meeting, attendees: Attendee[], call: MeetingCall | null, files: MeetingFile[]) {
  return {
    id: meeting.id,
    mrn: meetingMrnOf(meeting.id),
    title: meeting.title,
    description: meeting.description,
    location: meeting.location,
    starts_at: meeting.starts_at,
    ends_at: meeting.ends_at,
    status: meeting.status,
    sequence: meeting.sequence,
    organizer_mrn: memberMrn(meeting.organizer_id),
    attendees: attendees.map(presentAttendee),
    call: presentCall(call),
    files: files.map(presentFile),
    cancelled_at: meeting.cancelled_at,
    source_mrn: meeting.source_mrn,
    created_at: meeting.created_at,
    updated_at: meeting.updated_at,
  };
}

/** An upload grant (never with its link: only the answer that creates it carries the link). */
export function presentPresignation(grant: Presignation) {
  return {
    id: grant.id,
    meeting_id: grant.meeting_id,
    purpose: grant.purpose,
    filename: grant.filename,
    content_type: grant.content_type,
    max_bytes: Number(grant.max_bytes),
    status: grant.status,
    expires_at: grant.expires_at,
    created_by_mrn: memberMrn(grant.created_by),
    used_at: grant.used_at,
    revoked_at: grant.revoked_at,
    revoked_by_mrn: grant.revoked_by ? memberMrn(grant.revoked_by) : null,
    file_id: grant.file_id,
    created_at: grant.created_at,
  };
}
