/**
 * What the Meetings tests add to `startWorld` of @wpk/testing: the Calls app beside it (it makes
 * the meetings' calls), members holding every meetings key by default, the mails the app sent,
 * and iCalendar parsed back.
 */
import { fileURLToPath } from 'node:url';
import { prepareWorld, startWorld, type World } from '@wpk/testing';
import ICAL from 'ical.js';
import app from '../../src/index.js';

/** The Calls app, loaded from its folder as the platform loads it (no import across apps): it makes the meetings' calls. */
export const CALLS_DIR = fileURLToPath(new URL('../../../calls', import.meta.url));

export const ALL_KEYS = ['meetings.meetings.create', 'meetings.meetings.read', 'meetings.presignations.create'];

export interface SentMail {
  to: string[];
  subject: string;
  text: string;
  replyTo?: string;
  attachments?: Array<{ filename: string; contentType: string; content: string; encoding?: string }>;
  calendar?: { method: string; content: string };
}

export interface MeetingsWorld extends World {
  /** The mails the Meetings app sent since the last call, by recipient. */
  takeMails(): Promise<SentMail[]>;
}

export async function meetingsWorld(subdomain: string): Promise<MeetingsWorld> {
  const world = await startWorld({ app, subdomain, apps: [CALLS_DIR], memberKeys: ALL_KEYS });
  return prepareWorld(world, async () => {
    await world.workspace.install('calls');
    world.platform.takeEvents();
    let seen = (await world.platform.drainMail()).length;
    return {
      ...world,
      async takeMails() {
        const all = await world.platform.drainMail();
        const fresh = all.slice(seen);
        seen = all.length;
        // The outbox sends in any order: by recipient, then subject.
        const mine = fresh.filter((mail) => mail.fromName === 'Meetings') as unknown as SentMail[];
        return mine.sort((a, b) => a.to.join().localeCompare(b.to.join()) || a.subject.localeCompare(b.subject));
      },
    };
  });
}

/** An iCalendar document parsed back by ical.js (an RFC 5545 parser), as plain values. */
export function parseCalendar(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const event = calendar.getFirstSubcomponent('vevent')!;
  const text = (name: string) => event.getFirstPropertyValue(name) as string | null;
  const time = (name: string) => (event.getFirstPropertyValue(name) as unknown as ICAL.Time).toJSDate().toISOString();
  const organizer = event.getFirstProperty('organizer')!;
  return {
    method: calendar.getFirstPropertyValue('method') as string,
    version: calendar.getFirstPropertyValue('version'),
    prodid: calendar.getFirstPropertyValue('prodid'),
    events: calendar.getAllSubcomponents('vevent').length,
    uid: text('uid'),
    sequence: event.getFirstPropertyValue('sequence') as unknown as number,
    start: time('dtstart'),
    end: time('dtend'),
    summary: text('summary'),
    description: text('description'),
    location: text('location'),
    url: text('url'),
    status: text('status'),
    organizer: [organizer.getFirstValue(), organizer.getParameter('cn')],
    attendees: event.getAllProperties('attendee').map((property) => [property.getFirstValue(), property.getParameter('partstat'), property.getParameter('rsvp') ?? null, property.getParameter('cn') ?? null]),
  };
}
