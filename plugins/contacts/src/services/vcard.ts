/**
 * vCard (RFC 6350, version 4.0) reading and writing for the properties the app keeps. Reading
 * also takes version 3.0 cards (RFC 2426), which Google Contacts and many phones still export:
 * the two differ little for these properties. No dependency: the grammar needed is small.
 *
 * Reading: lines are unfolded (a CRLF or LF followed by one space or tab continues the line),
 * each content line is `[group.]NAME *(;PARAM=value) : value`, parameter values may be quoted,
 * and text values are unescaped (`\\`, `\,`, `\;`, `\n`). Writing: text is escaped, each line is
 * folded at 75 octets without splitting a UTF-8 character, lines end with CRLF.
 */
import { escapeContentText, foldContentLine } from '@wpk/sdk';

/** One card, as the app maps it to a contact. Empty parts are absent. */
export interface VCardContact {
  display_name?: string;
  given_name?: string;
  family_name?: string;
  middle_name?: string;
  prefix?: string;
  suffix?: string;
  nickname?: string;
  organization?: string;
  job_title?: string;
  birthday?: string;
  notes?: string;
  emails: Array<{ value: string; type: string }>;
  phones: Array<{ value: string; type: string }>;
  addresses: Array<{ type: string; street?: string; city?: string; region?: string; postal_code?: string; country?: string }>;
  tags: string[];
  uid?: string;
}

/** A content line: name (upper case, group dropped), parameters (upper-case names, values as written) and raw value. */
interface ContentLine {
  name: string;
  params: Map<string, string[]>;
  value: string;
}

/** A problem in the text, with the 1-based card and line numbers. */
export class VCardError extends Error {}

/** Unescapes a text value (`\n`, `\,`, `\;`, `\\`). */
function unescapeText(value: string): string {
  return value.replace(/\\([\\,;nN])/g, (_match, character: string) => (character === 'n' || character === 'N' ? '\n' : character));
}

/** Splits a structured or list value at unescaped `separator`s, then unescapes each part. */
function splitValue(value: string, separator: ',' | ';'): string[] {
  const parts: string[] = [];
  let current = '';
  for (let index = 0; index < value.length; index += 1) {
    const character = value[index];
    if (character === '\\' && index + 1 < value.length) {
      current += character + value[index + 1];
      index += 1;
    } else if (character === separator) {
      parts.push(current);
      current = '';
    } else current += character;
  }
  parts.push(current);
  return parts.map(unescapeText);
}

/** Parses one unfolded content line; null when it is not one. */
function parseLine(line: string): ContentLine | null {
  let index = 0;
  let inQuotes = false;
  // The value starts at the first colon outside a quoted parameter value.
  for (; index < line.length; index += 1) {
    if (line[index] === '"') inQuotes = !inQuotes;
    else if (line[index] === ':' && !inQuotes) break;
  }
  if (index >= line.length) return null;
  const head = line.slice(0, index);
  const value = line.slice(index + 1);
  const segments: string[] = [];
  let current = '';
  inQuotes = false;
  for (const character of head) {
    if (character === '"') inQuotes = !inQuotes;
    if (character === ';' && !inQuotes) {
      segments.push(current);
      current = '';
    } else current += character;
  }
  segments.push(current);
  const rawName = segments.shift()!.trim();
  const name = rawName.slice(rawName.lastIndexOf('.') + 1).toUpperCase();
  if (!/^[A-Z0-9-]+$/.test(name)) return null;
  const params = new Map<string, string[]>();
  for (const segment of segments) {
    const equals = segment.indexOf('=');
    // vCard 3.0 allows a bare parameter value (`TEL;CELL:...`), meaning TYPE=CELL.
    const key = equals === -1 ? 'TYPE' : segment.slice(0, equals).trim().toUpperCase();
    const raw = equals === -1 ? segment : segment.slice(equals + 1);
    const values = raw.match(/"[^"]*"|[^,]+/g)?.map((part) => part.replace(/^"|"$/g, '').trim()) ?? [];
    params.set(key, [...(params.get(key) ?? []), ...values.filter(Boolean)]);
  }
  return { name, params, value };
}

/** The first TYPE the app knows among a property's types (lower case), else `fallback`. */
function typeOf(line: ContentLine, known: readonly string[], fallback: string): string {
  const types = (line.params.get('TYPE') ?? []).flatMap((value) => value.split(',')).map((value) => value.trim().toLowerCase());
  return types.find((type) => known.includes(type)) ?? fallback;
}

/** A vCard date (`19850412`, `1985-04-12`, or 4.0's `--0412` with no year) as `YYYY-MM-DD`, or undefined. */
function parseDate(value: string): string | undefined {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})(?:T.*)?$/.exec(value.trim());
  return match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
}

export const EMAIL_TYPES = ['work', 'home', 'other'] as const;
export const PHONE_TYPES = ['mobile', 'work', 'home', 'fax', 'other'] as const;
export const ADDRESS_TYPES = ['work', 'home', 'other'] as const;

/** Maps one card's content lines to a contact. */
function toContact(lines: ContentLine[]): VCardContact {
  const contact: VCardContact = { emails: [], phones: [], addresses: [], tags: [] };
  const text = (line: ContentLine) => unescapeText(line.value).trim();
  for (const line of lines) {
    switch (line.name) {
      case 'FN':
        contact.display_name ??= text(line) || undefined;
        break;
      case 'N': {
        const [family, given, middle, prefix, suffix] = splitValue(line.value, ';').map((part) => part.split(',').join(' ').trim());
        if (family) contact.family_name = family;
        if (given) contact.given_name = given;
        if (middle) contact.middle_name = middle;
        if (prefix) contact.prefix = prefix;
        if (suffix) contact.suffix = suffix;
        break;
      }
      case 'NICKNAME':
        contact.nickname ??= splitValue(line.value, ',')[0]?.trim() || undefined;
        break;
      case 'EMAIL': {
        const value = text(line).replace(/^mailto:/i, '');
        if (value) contact.emails.push({ value, type: typeOf(line, EMAIL_TYPES, 'other') });
        break;
      }
      case 'TEL': {
        const value = text(line).replace(/^tel:/i, '');
        // 4.0 names a mobile `cell`; the app calls it `mobile`.
        const types = (line.params.get('TYPE') ?? []).flatMap((entry) => entry.split(',')).map((entry) => entry.trim().toLowerCase());
        const type = types.includes('cell') ? 'mobile' : types.includes('fax') ? 'fax' : typeOf(line, PHONE_TYPES, 'other');
        if (value) contact.phones.push({ value, type });
        break;
      }
      case 'ADR': {
        const [, extended, street, city, region, postalCode, country] = splitValue(line.value, ';').map((part) => part.split(',').join(' ').trim());
        const parts = { street: [street, extended].filter(Boolean).join('\n'), city, region, postal_code: postalCode, country };
        const kept = Object.fromEntries(Object.entries(parts).filter(([, value]) => value));
        if (Object.keys(kept).length) contact.addresses.push({ type: typeOf(line, ADDRESS_TYPES, 'other'), ...kept });
        break;
      }
      case 'ORG':
        contact.organization ??= splitValue(line.value, ';')[0]?.trim() || undefined;
        break;
      case 'TITLE':
        contact.job_title ??= text(line) || undefined;
        break;
      case 'NOTE':
        contact.notes = [contact.notes, text(line)].filter(Boolean).join('\n\n') || undefined;
        break;
      case 'CATEGORIES':
        for (const tag of splitValue(line.value, ',').map((part) => part.trim())) if (tag && !contact.tags.includes(tag)) contact.tags.push(tag);
        break;
      case 'BDAY': {
        // A 4.0 date without a year (`--0203`) is not kept: the app stores whole dates.
        const day = parseDate(text(line));
        if (day) contact.birthday ??= day;
        break;
      }
      case 'UID':
        contact.uid ??= text(line) || undefined;
        break;
      default:
        // Other properties (PHOTO, URL, X-*, ...) are not kept.
        break;
    }
  }
  return contact;
}

/**
 * Reads every card of a vCard text (4.0 or 3.0). Throws VCardError naming the card and line of
 * the first problem: text outside a card, a card not closed, a line that is no content line, a
 * card without VERSION or of another version.
 */
export function parseVCards(source: string): VCardContact[] {
  const physical = source.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const logical: Array<{ text: string; line: number }> = [];
  physical.forEach((text, index) => {
    if ((text.startsWith(' ') || text.startsWith('\t')) && logical.length > 0) logical[logical.length - 1].text += text.slice(1);
    else logical.push({ text, line: index + 1 });
  });
  const cards: VCardContact[] = [];
  let current: { lines: ContentLine[]; version: string | null; start: number } | null = null;
  for (const { text, line } of logical) {
    if (text.trim() === '') continue;
    const parsed = parseLine(text);
    if (!parsed) throw new VCardError(`line ${line} is not a vCard content line`);
    if (parsed.name === 'BEGIN' && parsed.value.trim().toUpperCase() === 'VCARD') {
      if (current) throw new VCardError(`line ${line}: BEGIN:VCARD inside the card begun at line ${current.start}`);
      current = { lines: [], version: null, start: line };
    } else if (parsed.name === 'END' && parsed.value.trim().toUpperCase() === 'VCARD') {
      if (!current) throw new VCardError(`line ${line}: END:VCARD without BEGIN:VCARD`);
      if (!current.version) throw new VCardError(`card ${cards.length + 1} (line ${current.start}) has no VERSION`);
      cards.push(toContact(current.lines));
      current = null;
    } else if (!current) {
      throw new VCardError(`line ${line} is outside BEGIN:VCARD ... END:VCARD`);
    } else if (parsed.name === 'VERSION') {
      const version = parsed.value.trim();
      if (version !== '4.0' && version !== '3.0') throw new VCardError(`card ${cards.length + 1} (line ${current.start}) has VERSION ${version}; 4.0 and 3.0 are read`);
      current.version = version;
    } else current.lines.push(parsed);
  }
  if (current) throw new VCardError(`card ${cards.length + 1} (line ${current.start}) is not closed by END:VCARD`);
  return cards;
}

/** Writes one card (4.0) with CRLF line ends. */
export function serializeVCard(contact: VCardContact): string {
  const lines = ['BEGIN:VCARD', 'VERSION:4.0'];
  if (contact.uid) lines.push(`UID:${contact.uid}`);
  lines.push(`FN:${escapeContentText(contact.display_name ?? '')}`);
  const n = [contact.family_name, contact.given_name, contact.middle_name, contact.prefix, contact.suffix].map((part) => escapeContentText(part ?? ''));
  if (n.some(Boolean)) lines.push(`N:${n.join(';')}`);
  if (contact.nickname) lines.push(`NICKNAME:${escapeContentText(contact.nickname)}`);
  for (const email of contact.emails) lines.push(`EMAIL;TYPE=${email.type}:${escapeContentText(email.value)}`);
  for (const phone of contact.phones) {
    const type = phone.type === 'mobile' ? 'cell' : phone.type === 'fax' ? 'fax' : phone.type;
    lines.push(`TEL;VALUE=text;TYPE=${type}:${escapeContentText(phone.value)}`);
  }
  for (const address of contact.addresses) {
    const parts = ['', '', address.street ?? '', address.city ?? '', address.region ?? '', address.postal_code ?? '', address.country ?? ''].map(escapeContentText);
    lines.push(`ADR;TYPE=${address.type}:${parts.join(';')}`);
  }
  if (contact.organization) lines.push(`ORG:${escapeContentText(contact.organization)}`);
  if (contact.job_title) lines.push(`TITLE:${escapeContentText(contact.job_title)}`);
  if (contact.birthday) lines.push(`BDAY:${contact.birthday.replace(/-/g, '')}`);
  if (contact.tags.length) lines.push(`CATEGORIES:${contact.tags.map(escapeContentText).join(',')}`);
  if (contact.notes) lines.push(`NOTE:${escapeContentText(contact.notes)}`);
  lines.push('END:VCARD');
  return lines.map(foldContentLine).join('\r\n') + '\r\n';
}

/** Writes many cards, one after another. */
export function serializeVCards(contacts: VCardContact[]): string {
  return contacts.map(serializeVCard).join('');
}
