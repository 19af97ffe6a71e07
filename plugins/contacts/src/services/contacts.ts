import { InvalidError, memberIdFromMrn, memberMrn, Op } from '@wpk/sdk';
import { resource, type ContactsBaseContext, type ContactsContext } from '../kit.js';
import type { Contact, ContactAddress, ContactEmail, ContactKey, ContactPhone, ContactSource } from '../models/index.js';
import { contactDocument, contactMrn, idFromMrn, presentContact } from './present.js';

/**
 * Contacts of the workspace: get-or-404, the list by display name (`q` over the text the contact
 * is found by) and the walk of a re-index. Writes stay here: a contact's index entry needs its
 * company's name and its identifying keys.
 */
export const contacts = resource({ model: 'contacts', label: 'Contact', order: [['display_name', 'ASC'], ['id', 'ASC']], searchColumns: ['search_text'] });

/** What a create or an update may set; `null` clears an optional field. */
export interface ContactInput {
  display_name?: string | null;
  given_name?: string | null;
  family_name?: string | null;
  middle_name?: string | null;
  prefix?: string | null;
  suffix?: string | null;
  nickname?: string | null;
  organization?: string | null;
  job_title?: string | null;
  company_mrn?: string | null;
  member_mrn?: string | null;
  emails?: ContactEmail[];
  phones?: ContactPhone[];
  addresses?: ContactAddress[];
  birthday?: string | null;
  notes?: string;
  tags?: string[];
}

/** The stored fields of a contact, without id, source and bookkeeping. */
export type ContactFields = Omit<Contact, 'id' | 'source' | 'creator_id' | 'created_at' | 'updated_at' | 'search_text'>;

const TEXT_FIELDS = ['given_name', 'family_name', 'middle_name', 'prefix', 'suffix', 'nickname', 'organization', 'job_title'] as const;

/** The fields an update compares, in the order `changed_fields` names them. */
export const CONTACT_FIELDS = ['display_name', ...TEXT_FIELDS, 'company_mrn', 'member_mrn', 'emails', 'phones', 'addresses', 'birthday', 'notes', 'tags'] as const;

/** An email address as compared (lower case, trimmed). */
export const emailKey = (value: string) => value.trim().toLowerCase();
/** A phone number as compared: its digits (a leading `+` and formatting dropped). */
export const phoneKey = (value: string) => value.replace(/\D/g, '');
/** A name as compared: lower case, spaces collapsed. */
export const nameKey = (value: string) => value.trim().replace(/\s+/g, ' ').toLowerCase();

/** The display name a contact gets when none is given: its names, else its first email, else its first phone. */
export function derivedName(fields: Pick<ContactFields, 'given_name' | 'middle_name' | 'family_name' | 'emails' | 'phones'>): string {
  const names = [fields.given_name, fields.middle_name, fields.family_name].filter(Boolean).join(' ');
  return names || fields.emails[0]?.value || fields.phones[0]?.value || '';
}

/** Trimmed text, null when empty. */
const clean = (value: string | null | undefined) => value?.trim() || null;

/** Emails without repeats (compared ignoring case), trimmed. */
function cleanEmails(emails: ContactEmail[]): ContactEmail[] {
  const seen = new Set<string>();
  return emails.map((email) => ({ value: email.value.trim(), type: email.type ?? 'other' })).filter((email) => !seen.has(emailKey(email.value)) && seen.add(emailKey(email.value)));
}

/** Phones without repeats (compared by digits), trimmed. */
function cleanPhones(phones: ContactPhone[]): ContactPhone[] {
  const seen = new Set<string>();
  return phones.map((phone) => ({ value: phone.value.trim(), type: phone.type ?? 'other' })).filter((phone) => !seen.has(phoneKey(phone.value) || phone.value) && seen.add(phoneKey(phone.value) || phone.value));
}

/** Addresses with their empty parts dropped; an address with no part left is dropped. */
function cleanAddresses(addresses: ContactAddress[]): ContactAddress[] {
  return addresses
    .map((address) => {
      const out: ContactAddress = { type: address.type ?? 'other' };
      for (const key of ['street', 'city', 'region', 'postal_code', 'country'] as const) {
        const value = address[key]?.trim();
        if (value) out[key] = value;
      }
      return out;
    })
    .filter((address) => Object.keys(address).length > 1);
}

/** Tags trimmed, without repeats (ignoring case; the first spelling stays). */
export function cleanTags(tags: string[]): string[] {
  const seen = new Set<string>();
  return tags.map((tag) => tag.trim()).filter((tag) => tag && !seen.has(tag.toLowerCase()) && seen.add(tag.toLowerCase()));
}

/**
 * The fields of a contact after applying `input` to `base` (a new contact: all empty). Refuses
 * (400) a company reference that is no company MRN, a company the app knows as deleted, and a
 * contact with nothing to call it by.
 */
export async function resolveFields(ctx: ContactsBaseContext, input: ContactInput, base: ContactFields | null): Promise<ContactFields> {
  const empty: ContactFields = { display_name: '', given_name: null, family_name: null, middle_name: null, prefix: null, suffix: null, nickname: null, organization: null, job_title: null, company_mrn: null, member_mrn: null, emails: [], phones: [], addresses: [], birthday: null, notes: '', tags: [] };
  const before = base ?? empty;
  const next: ContactFields = { ...before };
  for (const field of TEXT_FIELDS) if (input[field] !== undefined) next[field] = clean(input[field]);
  if (input.emails !== undefined) next.emails = cleanEmails(input.emails);
  if (input.phones !== undefined) next.phones = cleanPhones(input.phones);
  if (input.addresses !== undefined) next.addresses = cleanAddresses(input.addresses);
  if (input.birthday !== undefined) next.birthday = input.birthday;
  if (input.notes !== undefined) next.notes = input.notes;
  if (input.tags !== undefined) next.tags = cleanTags(input.tags);
  // The route checked that it names a member of the workspace (a former one too).
  if (input.member_mrn !== undefined) next.member_mrn = input.member_mrn ? memberMrn(memberIdFromMrn(input.member_mrn)!.toLowerCase()) : null;
  if (input.company_mrn !== undefined && input.company_mrn !== before.company_mrn) {
    const companyId = input.company_mrn === null ? null : idFromMrn(input.company_mrn, 'companies', 'company');
    if (input.company_mrn !== null && !companyId) throw new InvalidError(`company_mrn must be a company MRN (mrn:companies:company:{id}), got ${input.company_mrn}`);
    if (companyId) {
      const copy = await ctx.db.companyCopies.findOne({ where: { company_id: companyId } });
      if (copy?.deleted) throw new InvalidError(`company_mrn ${input.company_mrn} names a deleted company`);
    }
    next.company_mrn = companyId ? `mrn:companies:company:${companyId}` : null;
  }
  // The display name: as given; else kept when it was chosen by hand; else derived from the rest.
  const wasDerived = base === null || before.display_name === derivedName(before);
  if (input.display_name !== undefined && clean(input.display_name)) next.display_name = clean(input.display_name)!;
  else if (input.display_name === null || input.display_name === '' || wasDerived) next.display_name = derivedName(next);
  if (!next.display_name) throw new InvalidError('A contact needs a name, an email or a phone: give display_name, given_name, family_name, emails or phones');
  if (next.display_name.length > 200) next.display_name = next.display_name.slice(0, 200);
  return next;
}

/** The identifying keys of a contact (see ContactKey). */
export function keysOf(contactId: string, fields: ContactFields): ContactKey[] {
  const keys = new Map<string, ContactKey>();
  const add = (kind: ContactKey['kind'], value: string) => value && keys.set(`${kind}:${value}`, { contact_id: contactId, kind, value: value.slice(0, 320) });
  for (const email of fields.emails) add('email', emailKey(email.value));
  for (const phone of fields.phones) if (phoneKey(phone.value).length >= 5) add('phone', phoneKey(phone.value));
  if (fields.member_mrn) add('member', fields.member_mrn);
  const person = [fields.given_name, fields.middle_name, fields.family_name].filter(Boolean).join(' ') || fields.display_name;
  if (person && !fields.emails.some((email) => email.value === person) && !fields.phones.some((phone) => phone.value === person)) add('name', nameKey(person));
  return [...keys.values()];
}

/** The text `q` searches: names, organization, title, emails, phones, tags (lower case). */
function searchTextOf(fields: ContactFields): string {
  return [fields.display_name, fields.given_name, fields.family_name, fields.nickname, fields.organization, fields.job_title, ...fields.emails.map((email) => email.value), ...fields.phones.map((phone) => phone.value), ...fields.tags].filter(Boolean).join(' ').toLowerCase();
}

/** Company names of the app's copy, by company MRN (deleted companies and unknown ones absent). */
export async function companyNames(ctx: Pick<ContactsBaseContext, 'db'>, mrns: Array<string | null>): Promise<Map<string, string>> {
  const ids = [...new Set(mrns.map((mrn) => idFromMrn(mrn, 'companies', 'company')).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const copies = await ctx.db.companyCopies.findAll({ where: { company_id: { [Op.in]: ids }, deleted: false } });
  return new Map(copies.map((copy) => [`mrn:companies:company:${copy.company_id}`, copy.name]));
}

/** Contacts as answered, with their company names from the copy. */
export async function presentContacts(ctx: ContactsBaseContext, rows: Contact[]) {
  const names = await companyNames(ctx, rows.map((row) => row.company_mrn));
  return rows.map((row) => presentContact(row, row.company_mrn ? (names.get(row.company_mrn) ?? null) : null));
}

/** Writes a contact's keys and search document (after a create or an update). */
async function index(ctx: ContactsBaseContext, contact: Contact, fields: ContactFields, fresh: boolean): Promise<void> {
  if (!fresh) await ctx.db.contactKeys.destroy({ where: { contact_id: contact.id } });
  const keys = keysOf(contact.id, fields);
  for (const key of keys) await ctx.db.contactKeys.create(key);
  // A pending suggestion of this person (by member or email) is settled: the person is a contact now.
  const people = keys.filter((key) => key.kind === 'member' || key.kind === 'email').map((key) => `${key.kind}:${key.value}`);
  if (people.length) await ctx.db.suggestions.update({ status: 'accepted', contact_id: contact.id }, { where: { status: 'pending', person_key: { [Op.in]: people } } });
  const names = await companyNames(ctx, [contact.company_mrn]);
  ctx.search.upsert(contactDocument(contact, contact.company_mrn ? (names.get(contact.company_mrn) ?? null) : null));
}

/** The display fields the contact events carry. */
export function eventFields(contact: Pick<Contact, 'id' | 'display_name' | 'emails' | 'company_mrn' | 'member_mrn'>) {
  return { contact_id: contact.id, contact_mrn: contactMrn(contact.id), display_name: contact.display_name, primary_email: contact.emails[0]?.value ?? null, company_mrn: contact.company_mrn, member_mrn: contact.member_mrn };
}

/** Creates a contact from resolved fields; emits `contact.created` with its source. */
export async function insertContact(ctx: ContactsBaseContext, fields: ContactFields, source: ContactSource, creatorId: string): Promise<Contact> {
  const contact = await ctx.db.contacts.create({ ...fields, search_text: searchTextOf(fields), source, creator_id: creatorId });
  await index(ctx, contact, fields, true);
  ctx.events.stage('core.contacts.contact.created', { ...eventFields(contact), source, created_by: creatorId });
  return contact;
}

/** `POST /contacts`. */
export async function createContact(ctx: ContactsContext, input: ContactInput): Promise<Contact> {
  return insertContact(ctx, await resolveFields(ctx, input, null), 'manual', ctx.member.id);
}

/** The contact of the workspace; 404 otherwise (another workspace's id answers the same). */
export function requireContact(ctx: ContactsBaseContext, contactId: string, lock?: 'update'): Promise<Contact> {
  return contacts.require(ctx, contactId, lock ? { lock } : {});
}

/** The stored fields of a contact row. */
export function fieldsOf(contact: Contact): ContactFields {
  const { id: _id, source: _source, creator_id: _creator, created_at: _created, updated_at: _updated, search_text: _search, ...fields } = contact as Contact & { workspace_id?: string };
  delete (fields as { workspace_id?: string }).workspace_id;
  return fields;
}

/**
 * Writes new fields to a contact; emits `contact.updated` naming the changed fields when any
 * changed (`updatedBy` null: the app itself, on another app's event; `silent`: the caller emits
 * its own event). Returns the stored row.
 */
export async function writeContact(ctx: ContactsBaseContext, contact: Contact, next: ContactFields, updatedBy: string | null, options: { silent?: boolean } = {}): Promise<Contact> {
  const before = fieldsOf(contact);
  const changed = CONTACT_FIELDS.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(next[field]));
  if (changed.length === 0) return contact;
  await ctx.db.contacts.update({ ...next, search_text: searchTextOf(next) }, { where: { id: contact.id } });
  const updated = (await ctx.db.contacts.findById(contact.id))!;
  await index(ctx, updated, next, false);
  if (!options.silent) ctx.events.stage('core.contacts.contact.updated', { ...eventFields(updated), changed_fields: [...changed], updated_by: updatedBy });
  return updated;
}

/** `PUT /contacts/{id}`: the given fields change, the others stay. */
export async function updateContact(ctx: ContactsContext, contactId: string, input: ContactInput): Promise<Contact> {
  const contact = await requireContact(ctx, contactId, 'update');
  return writeContact(ctx, contact, await resolveFields(ctx, input, fieldsOf(contact)), ctx.member.id);
}

/** `DELETE /contacts/{id}`: the contact and its keys go; suggestions that became it forget it. */
export async function deleteContact(ctx: ContactsContext, contactId: string) {
  const contact = await requireContact(ctx, contactId, 'update');
  await removeContact(ctx, contact);
  ctx.events.stage('core.contacts.contact.deleted', { contact_id: contact.id, contact_mrn: contactMrn(contact.id), display_name: contact.display_name, deleted_by: ctx.member.id });
  return { id: contact.id, mrn: contactMrn(contact.id), deleted: true };
}

/** Removes a contact's rows and search document (no event: the caller emits its own). */
export async function removeContact(ctx: ContactsBaseContext, contact: Contact): Promise<void> {
  await ctx.db.suggestions.update({ contact_id: null }, { where: { contact_id: contact.id } });
  await ctx.db.contactKeys.destroy({ where: { contact_id: contact.id } });
  await ctx.db.contacts.destroy({ where: { id: contact.id } });
  ctx.search.remove('contact', contact.id);
}

export interface ListFilters {
  q?: string;
  tag?: string;
  company_mrn?: string;
  email?: string;
}

/** One page of contacts by display name, then id. */
export async function listContacts(ctx: ContactsContext, filters: ListFilters) {
  const where: Record<string, unknown> = {};
  if (filters.tag) where.tags = { [Op.contains]: [filters.tag] };
  if (filters.company_mrn) where.company_mrn = filters.company_mrn.toLowerCase();
  if (filters.email) {
    const keys = await ctx.db.contactKeys.findAll({ where: { kind: 'email', value: emailKey(filters.email) } });
    where.id = { [Op.in]: keys.map((key) => key.contact_id) };
  }
  return contacts.list(ctx, { q: filters.q, where });
}
