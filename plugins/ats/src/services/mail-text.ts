import { escapeContentText, foldContentLine, InvalidError } from '@wpk/sdk';

/**
 * The text side of mails to candidates, with no database: merge fields, rendering a template
 * into HTML and plain text, and the iCalendar invitations of interviews.
 */

/** Merge fields a template may use; anything else between `{{ }}` is refused when the template is saved. */
export const MERGE_FIELDS = [
  'candidate_name', 'candidate_first_name', 'job_title', 'company_name', 'recruiter_name', 'interview_link',
  'interview_time', 'interview_location', 'stage_name', 'offer_summary',
] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];
export type MergeValues = Partial<Record<MergeField, string>>;

const FIELD = /\{\{\s*([^}]*?)\s*\}\}/g;

/** Refuses `{{name}}` that is no merge field (a template, or a message's own subject and body). */
export function checkMergeFields(text: string, field: string): void {
  for (const match of text.matchAll(FIELD)) {
    if (!(MERGE_FIELDS as readonly string[]).includes(match[1])) throw new InvalidError(`${field}: {{${match[1]}}} is not a merge field (${MERGE_FIELDS.join(', ')})`);
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[character]};`);
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1].toLowerCase() === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** True when the body is HTML (has a tag); otherwise it is plain text a recruiter typed. */
export function looksLikeHtml(body: string): boolean {
  return /<\/?[a-z][^>]*>/i.test(body);
}

/**
 * What of a recruiter's HTML goes out: everything but active content (script, style, iframe,
 * object and embed elements, `on…` attributes, `javascript:` links), which no mail needs and
 * the app's own screens must not run.
 */
export function sanitizeHtml(html: string): string {
  return html
    .replace(/<(script|style|iframe|object|embed)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<(script|style|iframe|object|embed)\b[^>]*>/gi, '')
    .replace(/\s+on[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '')
    .replace(/(href|src)\s*=\s*(["']?)\s*javascript:[^"'\s>]*\2/gi, '$1="#"');
}

/** The plain-text alternative of an HTML body: paragraphs and line breaks kept, links as `label (url)`. */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<a\s[^>]*href\s*=\s*["']([^"']*)["'][^>]*>([\s\S]*?)<\/a>/gi, (_whole, href: string, label: string) => {
      const shown = label.replace(/<[^>]+>/g, '').trim();
      return !shown || decodeEntities(shown) === decodeEntities(href) ? href : `${shown} (${href})`;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '- ')
    .replace(/<\/(p|div|h[1-6]|li|tr|ul|ol|table|blockquote)>/gi, '\n\n')
    .replace(/<[^>]+>/g, '');
  return decodeEntities(text)
    .replace(/[ \t]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Plain text as HTML: paragraphs at blank lines, line breaks kept. */
function textToHtml(text: string): string {
  return text.split(/\n{2,}/).map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`).join('\n');
}

function fill(text: string, values: MergeValues, field: string, escape: boolean): string {
  return text.replace(FIELD, (_whole, name: MergeField) => {
    const value = values[name];
    if (value === undefined) throw new InvalidError(`${field}: {{${name}}} has no value in this message${HINTS[name] ? ` (${HINTS[name]})` : ''}`);
    return escape ? escapeHtml(value) : value;
  });
}

const HINTS: Partial<Record<MergeField, string>> = {
  job_title: 'name the application (application_id)',
  stage_name: 'it is known when an application moves stage',
  interview_link: 'it is known when a self-schedule link is minted',
  interview_time: 'it is known when an interview is scheduled',
  interview_location: 'it is known when an interview is scheduled',
  offer_summary: 'it is known when an offer is sent',
  recruiter_name: 'it is known when a member sends the message',
};

/** A subject, body and plain text with the merge fields filled (HTML-escaped in the HTML body). */
export function renderMessage(subject: string, body: string, values: MergeValues): { subject: string; html: string; text: string } {
  const filledSubject = fill(subject, values, 'subject', false).replace(/\s+/g, ' ').trim();
  if (!filledSubject) throw new InvalidError('subject: a message needs a subject (give subject, or a template with one)');
  if (filledSubject.length > 998) throw new InvalidError('subject must be at most 998 characters once the merge fields are filled');
  let html: string;
  let text: string;
  if (looksLikeHtml(body)) {
    html = sanitizeHtml(fill(body, values, 'body_html', true));
    text = htmlToText(html);
  } else {
    text = fill(body, values, 'body_html', false).replace(/\r\n?/g, '\n').trim();
    html = textToHtml(text);
  }
  if (!text) throw new InvalidError('body_html: a message needs a body (give body_html, or a template with one)');
  return { subject: filledSubject, html, text };
}

/** An instant as a candidate reads it in a mail: `Tuesday 7 January 2031, 10:00 UTC` (the invitation carries the exact time for their calendar). */
export function readableTime(at: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${WEEKDAYS[at.getUTCDay()]} ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}, ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())} UTC`;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const icsInstant = (at: Date): string => at.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

export interface InvitationInput {
  method: 'REQUEST' | 'CANCEL';
  uid: string;
  sequence: number;
  stamp: Date;
  start: Date;
  minutes: number;
  summary: string;
  location: string | null;
  description: string | null;
  organizer: { name: string; email: string } | null;
  attendee: { name: string; email: string };
}

/** The iCalendar invitation (or cancellation) of an interview, as RFC 5546 (iTIP) wants it. */
export function invitation(input: InvitationInput): string {
  const lines = [
    'BEGIN:VCALENDAR', 'PRODID:-//Workspace Platform Kit//Recruiting//EN', 'VERSION:2.0', 'CALSCALE:GREGORIAN', `METHOD:${input.method}`,
    'BEGIN:VEVENT', `UID:${input.uid}`, `SEQUENCE:${input.sequence}`, `DTSTAMP:${icsInstant(input.stamp)}`,
    `DTSTART:${icsInstant(input.start)}`, `DTEND:${icsInstant(new Date(input.start.getTime() + input.minutes * 60_000))}`,
    `SUMMARY:${escapeContentText(input.summary)}`,
    ...(input.location ? [`LOCATION:${escapeContentText(input.location)}`] : []),
    ...(input.description ? [`DESCRIPTION:${escapeContentText(input.description)}`] : []),
    ...(input.organizer ? [`ORGANIZER;CN="${input.organizer.name.replace(/"/g, "'")}":mailto:${input.organizer.email}`] : []),
    `ATTENDEE;CN="${input.attendee.name.replace(/"/g, "'")}";ROLE=REQ-PARTICIPANT;PARTSTAT=${input.method === 'CANCEL' ? 'DECLINED' : 'NEEDS-ACTION'};RSVP=${input.method === 'CANCEL' ? 'FALSE' : 'TRUE'}:mailto:${input.attendee.email}`,
    `STATUS:${input.method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT', 'END:VCALENDAR',
  ];
  return `${lines.map(foldContentLine).join('\r\n')}\r\n`;
}
