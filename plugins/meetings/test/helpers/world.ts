/**
 * The Meetings app's test fixture: a real platform with the app as first-party, one workspace
 * where it is installed, members holding chosen keys, and the mails the app sent.
 */
import { fileURLToPath } from 'node:url';
import { createTestPlatform, type TestMember, type TestPlatform, type TestWorkspace } from '@wpk/testing';
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

export interface World {
  platform: TestPlatform;
  workspace: TestWorkspace;
  owner: TestMember;
  member(keys?: string[]): Promise<TestMember>;
  /** The `core.meetings.*` events written since the last call, oldest first. */
  takeEvents(): Array<{ action: string; payload: Record<string, unknown> }>;
  /** The mails the Meetings app sent since the last call, by recipient. */
  takeMails(): Promise<SentMail[]>;
  close(): Promise<void>;
}

export async function startWorld(subdomain: string): Promise<World> {
  const platform = await createTestPlatform({ apps: [app, CALLS_DIR], firstParty: true });
  try {
    const workspace = await platform.workspace(subdomain);
    await workspace.install('meetings');
    await workspace.install('calls');
    platform.takeEvents();
    let seen = (await platform.drainMail()).length;
    return {
      platform,
      workspace,
      owner: workspace.owner,
      member: (keys = ALL_KEYS) => workspace.member({ permissions: keys }),
      takeEvents: () =>
        platform
          .takeEvents()
          .filter((event) => event.action.startsWith('core.meetings.'))
          .map((event) => ({ action: event.action, payload: event.payload })),
      async takeMails() {
        const all = await platform.drainMail();
        const fresh = all.slice(seen);
        seen = all.length;
        // The outbox sends in any order: by recipient, then subject.
        const mine = fresh.filter((mail) => mail.fromName === 'Meetings') as unknown as SentMail[];
        return mine.sort((a, b) => a.to.join().localeCompare(b.to.join()) || a.subject.localeCompare(b.subject));
      },
      close: () => platform.close(),
    };
  } catch (error) {
    await platform.close();
    throw error;
  }
}

/** The body of a 200 answer, or a thrown error naming what came instead. */
export async function ok<T = any>(reply: Promise<{ status: number; body: any }>): Promise<T> {
  const answer = await reply;
  if (answer.status !== 200) throw new Error(`${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data as T;
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
