import { InvalidError, Op } from '@wpk/sdk';
import type { Contact, ContactAddress, ContactEmail, ContactPhone } from '../models/index.js';
import { companyNames, insertContact, resolveFields, type ContactInput } from './contacts.js';
import type { ContactsContext } from '../kit.js';
import { parseVCards, serializeVCards, VCardError, type VCardContact } from './vcard.js';

/** The bounds a contact's fields have in the API, checked on each imported card too. */
const LIMITS = { text: 100, long: 200, emails: 20, phones: 20, addresses: 10, tags: 30, tag: 50, notes: 10000, email: 320, phone: 50 };

/** A real `YYYY-MM-DD` day (2027-02-30 is not). */
function isCalendarDay(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** One card as a contact input; throws the first bound it breaks, as the API would refuse it. */
function cardInput(card: VCardContact): ContactInput {
  const text = (field: string, value: string | undefined, max: number) => {
    if (value && value.length > max) throw new InvalidError(`${field} is longer than ${max} characters`);
    return value ?? null;
  };
  if (card.emails.length > LIMITS.emails) throw new InvalidError(`${card.emails.length} EMAIL properties, more than ${LIMITS.emails}`);
  if (card.phones.length > LIMITS.phones) throw new InvalidError(`${card.phones.length} TEL properties, more than ${LIMITS.phones}`);
  if (card.addresses.length > LIMITS.addresses) throw new InvalidError(`${card.addresses.length} ADR properties, more than ${LIMITS.addresses}`);
  if (card.tags.length > LIMITS.tags) throw new InvalidError(`${card.tags.length} CATEGORIES, more than ${LIMITS.tags}`);
  for (const email of card.emails) if (email.value.length > LIMITS.email || !/^[^\s@]+@[^\s@]+$/.test(email.value)) throw new InvalidError(`EMAIL ${JSON.stringify(email.value.slice(0, 80))} is not an email address`);
  for (const phone of card.phones) if (phone.value.length > LIMITS.phone) throw new InvalidError(`TEL ${JSON.stringify(phone.value.slice(0, 80))} is longer than ${LIMITS.phone} characters`);
  for (const tag of card.tags) if (tag.length > LIMITS.tag) throw new InvalidError(`CATEGORIES ${JSON.stringify(tag.slice(0, 80))} is longer than ${LIMITS.tag} characters`);
  if (card.birthday && !isCalendarDay(card.birthday)) throw new InvalidError(`BDAY ${card.birthday} is not a day of the calendar`);
  if ((card.notes ?? '').length > LIMITS.notes) throw new InvalidError(`NOTE is longer than ${LIMITS.notes} characters`);
  const addresses: ContactAddress[] = card.addresses.map((address) => {
    for (const [key, max] of [['street', 500], ['city', 100], ['region', 100], ['postal_code', 20], ['country', 100]] as const) text(`ADR ${key}`, address[key], max);
    return address as ContactAddress;
  });
  return {
    display_name: text('FN', card.display_name, LIMITS.long),
    given_name: text('N given name', card.given_name, LIMITS.text),
    family_name: text('N family name', card.family_name, LIMITS.text),
    middle_name: text('N additional names', card.middle_name, LIMITS.text),
    prefix: text('N prefix', card.prefix, 50),
    suffix: text('N suffix', card.suffix, 50),
    nickname: text('NICKNAME', card.nickname, LIMITS.text),
    organization: text('ORG', card.organization, LIMITS.long),
    job_title: text('TITLE', card.job_title, LIMITS.long),
    emails: card.emails as ContactEmail[],
    phones: card.phones as ContactPhone[],
    addresses,
    birthday: card.birthday ?? null,
    notes: card.notes ?? '',
    tags: card.tags,
  };
}

/**
 * `POST /contacts/imports`: every card of a vCard text (4.0 or 3.0) becomes a contact, or none
 * does: the first card that breaks a rule answers 400 naming it (`card 3: ...`) and nothing is
 * written. Duplicates are not skipped (Google and Nextcloud import them too); `GET
 * /contacts/duplicates` finds them for a merge.
 */
export async function importContacts(ctx: ContactsContext, vcard: string) {
  let cards: VCardContact[];
  try {
    cards = parseVCards(vcard);
  } catch (error) {
    if (error instanceof VCardError) throw new InvalidError(`vcard: ${error.message}`);
    throw error;
  }
  if (cards.length === 0) throw new InvalidError('vcard holds no card (BEGIN:VCARD ... END:VCARD)');
  const most = ctx.settings.max_import_contacts;
  if (cards.length > most) throw new InvalidError(`vcard holds ${cards.length} cards, more than ${most} (settings: max_import_contacts)`);
  const resolved = [];
  for (const [index, card] of cards.entries()) {
    try {
      const input = cardInput(card);
      resolved.push(await resolveFields(ctx, input, null));
    } catch (error) {
      if (error instanceof InvalidError) throw new InvalidError(`card ${index + 1}: ${error.message}`);
      throw error;
    }
  }
  const created: Contact[] = [];
  for (const fields of resolved) created.push(await insertContact(ctx, fields, 'import', ctx.member.id));
  return { created: created.length, contact_ids: created.map((contact) => contact.id) };
}

/** The card of a contact (ORG: its organization, else its company's name from the copy). */
function cardOf(contact: Contact, companyName: string | null): VCardContact {
  return {
    uid: `urn:uuid:${contact.id}`,
    display_name: contact.display_name,
    given_name: contact.given_name ?? undefined,
    family_name: contact.family_name ?? undefined,
    middle_name: contact.middle_name ?? undefined,
    prefix: contact.prefix ?? undefined,
    suffix: contact.suffix ?? undefined,
    nickname: contact.nickname ?? undefined,
    organization: contact.organization ?? companyName ?? undefined,
    job_title: contact.job_title ?? undefined,
    birthday: contact.birthday ?? undefined,
    notes: contact.notes || undefined,
    emails: contact.emails,
    phones: contact.phones,
    addresses: contact.addresses,
    tags: contact.tags,
  };
}

/** The most contacts one export writes. */
export const EXPORT_LIMIT = 5000;

/**
 * `GET /contacts/vcard`: the contacts (all, or those of `ids`, `tag`, `company_mrn`) as one
 * vCard 4.0 text, by display name (the route answers it as a `text/vcard` file). 400 past
 * EXPORT_LIMIT contacts (narrow the selection).
 */
export async function exportContacts(ctx: ContactsContext, filters: { ids?: string[]; tag?: string; company_mrn?: string }) {
  const where: Record<string, unknown> = {};
  if (filters.ids) where.id = { [Op.in]: filters.ids };
  if (filters.tag) where.tags = { [Op.contains]: [filters.tag] };
  if (filters.company_mrn) where.company_mrn = filters.company_mrn.toLowerCase();
  const count = await ctx.db.contacts.count({ where });
  if (count > EXPORT_LIMIT) throw new InvalidError(`The selection holds ${count} contacts, more than ${EXPORT_LIMIT} in one export: narrow it with ids, tag or company_mrn`);
  const rows = await ctx.db.contacts.findAll({ where, order: [['display_name', 'ASC'], ['id', 'ASC']] });
  const names = await companyNames(ctx, rows.map((row) => row.company_mrn));
  const vcard = serializeVCards(rows.map((row) => cardOf(row, row.company_mrn ? (names.get(row.company_mrn) ?? null) : null)));
  return { filename: 'contacts.vcf', content_type: 'text/vcard; charset=utf-8', count: rows.length, vcard };
}
