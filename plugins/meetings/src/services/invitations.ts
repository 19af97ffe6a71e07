import type { MeetingsBaseContext } from '../kit.js';
import type { Attendee, Meeting } from '../models/index.js';
import { buildCalendar, meetingUid, type CalendarAttendee } from './icalendar.js';

/** An attendee the app can mail: an outside address, or a member (at the address given, else their sign-in address). */
export interface Recipient {
  attendee: Attendee;
  email: string;
  name: string | null;
}

/**
 * The attendees that have an address, in the given order: the `email` given with the invitation,
 * else a member's sign-in address from the member directory (one read). A member who was removed
 * from the workspace is mailed no more.
 */
export async function recipientsOf(ctx: MeetingsBaseContext, attendees: Attendee[]): Promise<Recipient[]> {
  const wanted = attendees.flatMap((attendee) => (!attendee.email && attendee.member_id ? [attendee.member_id] : []));
  const members = wanted.length ? await ctx.members.getMany(wanted) : new Map();
  const recipients: Recipient[] = [];
  for (const attendee of attendees) {
    if (attendee.email) {
      recipients.push({ attendee, email: attendee.email, name: attendee.name });
      continue;
    }
    const member = attendee.member_id ? members.get(attendee.member_id) : undefined;
    if (member?.active) recipients.push({ attendee, email: member.email.toLowerCase(), name: attendee.name ?? (member.name || null) });
  }
  return recipients;
}

/** `2030-01-15 10:00 to 11:00 UTC` (or with the end's date when it ends another day). */
export function describeWhen(starts: Date, ends: Date): string {
  const day = (instant: Date) => instant.toISOString().slice(0, 10);
  const time = (instant: Date) => instant.toISOString().slice(11, 16);
  return day(starts) === day(ends) ? `${day(starts)} ${time(starts)} to ${time(ends)} UTC` : `${day(starts)} ${time(starts)} to ${day(ends)} ${time(ends)} UTC`;
}

/** What a mail says, by kind. */
const KINDS = {
  invitation: { subject: 'Invitation', lead: 'invites you to' },
  update: { subject: 'Updated invitation', lead: 'has updated' },
  cancellation: { subject: 'Cancelled', lead: 'has cancelled' },
  removal: { subject: 'Cancelled', lead: 'has taken you off' },
} as const;

export type MailKind = keyof typeof KINDS;

/**
 * Mails each recipient its own copy (one mail each: nobody sees the others' addresses in the
 * To line) with the meeting's iCalendar (ctx.mail sends it as the `text/calendar` part and as an
 * `invite.ics` file): REQUEST for an invitation or an update, CANCEL for a
 * cancellation or a removal. `listed`: the ATTENDEE lines of the calendar.
 */
export function mailMeeting(ctx: MeetingsBaseContext, meeting: Meeting, kind: MailKind, recipients: Recipient[], listed: Recipient[], joinUrl: string | null): void {
  if (recipients.length === 0) return;
  const method = kind === 'invitation' || kind === 'update' ? 'REQUEST' : 'CANCEL';
  const ics = buildCalendar(method, {
    uid: meetingUid(meeting.id),
    sequence: meeting.sequence,
    stamp: new Date(),
    starts_at: meeting.starts_at,
    ends_at: meeting.ends_at,
    title: meeting.title,
    description: meeting.description,
    location: meeting.location,
    url: joinUrl,
    organizer: { email: meeting.organizer_email, name: meeting.organizer_name },
    attendees: listed.map((recipient): CalendarAttendee => ({ email: recipient.email, name: recipient.name, status: recipient.attendee.status })),
    cancelled: method === 'CANCEL',
  });
  const when = describeWhen(meeting.starts_at, meeting.ends_at);
  const { subject, lead } = KINDS[kind];
  const lines = [`${meeting.organizer_name || meeting.organizer_email} ${lead} ${meeting.title}.`, '', `When: ${when}`];
  if (meeting.location) lines.push(`Where: ${meeting.location}`);
  if (joinUrl && method === 'REQUEST') lines.push(`Join: ${joinUrl}`);
  if (meeting.description && method === 'REQUEST') lines.push('', meeting.description);
  const text = `${lines.join('\n')}\n`;
  for (const recipient of recipients) {
    ctx.mail.send({
      to: recipient.email,
      replyTo: meeting.organizer_email,
      subject: `${subject}: ${meeting.title.replace(/[\r\n]+/g, ' ')} @ ${when}`,
      text,
      calendar: { method, content: ics },
    });
  }
}
