/**
 * iCalendar (RFC 5545) for the meeting invitations, with the iTIP methods of RFC 5546: REQUEST
 * (an invitation or an update) and CANCEL (the meeting cancelled, or an attendee removed). Lines
 * end in CRLF and are folded at 75 octets; text values are escaped.
 */
import { escapeContentText, foldContentLine } from '@wpk/sdk';

/** One attendee line. */
export interface CalendarAttendee {
  email: string;
  name: string | null;
  status: 'needs_action' | 'accepted' | 'declined' | 'tentative';
}

/** What a VEVENT says about a meeting. */
export interface CalendarEvent {
  /** Stable per meeting: every invitation, update and cancellation of it carries the same UID. */
  uid: string;
  sequence: number;
  stamp: Date;
  starts_at: Date;
  ends_at: Date;
  title: string;
  description: string;
  location: string;
  url: string | null;
  organizer: { email: string; name: string };
  attendees: CalendarAttendee[];
  cancelled: boolean;
}

/** The UID of a meeting's VEVENT. */
export function meetingUid(meetingId: string): string {
  return `meeting-${meetingId}@workspace-platform-kit`;
}

/** `YYYYMMDDTHHMMSSZ`, the UTC form of DATE-TIME. */
export function formatUtc(instant: Date): string {
  return instant.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

/** A parameter value: quoted (DQUOTE is not allowed inside, so it is dropped), control characters removed. */
function paramValue(value: string): string {
  return `"${value.replace(/["\p{Cc}]/gu, '')}"`;
}

const PARTSTAT = { needs_action: 'NEEDS-ACTION', accepted: 'ACCEPTED', declined: 'DECLINED', tentative: 'TENTATIVE' } as const;

/** A VCALENDAR with one VEVENT, for `method`. */
export function buildCalendar(method: 'REQUEST' | 'CANCEL', event: CalendarEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'PRODID:-//Workspace Platform Kit//Meetings//EN',
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    `METHOD:${method}`,
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${formatUtc(event.stamp)}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTART:${formatUtc(event.starts_at)}`,
    `DTEND:${formatUtc(event.ends_at)}`,
    `SUMMARY:${escapeContentText(event.title)}`,
  ];
  if (event.description) lines.push(`DESCRIPTION:${escapeContentText(event.description)}`);
  if (event.location) lines.push(`LOCATION:${escapeContentText(event.location)}`);
  if (event.url) lines.push(`URL:${event.url}`);
  lines.push(`ORGANIZER;CN=${paramValue(event.organizer.name || event.organizer.email)}:mailto:${event.organizer.email}`);
  for (const attendee of event.attendees) {
    const rsvp = method === 'REQUEST' && attendee.status === 'needs_action' ? ';RSVP=TRUE' : '';
    const name = attendee.name ? `;CN=${paramValue(attendee.name)}` : '';
    lines.push(`ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=${PARTSTAT[attendee.status]}${rsvp}${name}:mailto:${attendee.email}`);
  }
  lines.push(`STATUS:${event.cancelled ? 'CANCELLED' : 'CONFIRMED'}`, 'TRANSP:OPAQUE', 'END:VEVENT', 'END:VCALENDAR');
  return `${lines.map(foldContentLine).join('\r\n')}\r\n`;
}
