import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

export interface ContactEmail {
  value: string;
  type: 'work' | 'home' | 'other';
}
export interface ContactPhone {
  value: string;
  type: 'mobile' | 'work' | 'home' | 'fax' | 'other';
}
export interface ContactAddress {
  type: 'work' | 'home' | 'other';
  street?: string;
  city?: string;
  region?: string;
  postal_code?: string;
  country?: string;
}

/** Where a contact came from. */
export type ContactSource = 'manual' | 'import' | 'suggestion';

/** A contact of the workspace's address book (shared by the workspace, like a CRM's). */
export type Contact = DeclaredRow<typeof contacts>;

export const contacts = defineModel('contacts', {
  id: column.uuid().primaryKey().defaultRandom(),
  display_name: column.string(200),
  given_name: column.string(100).nullable(),
  family_name: column.string(100).nullable(),
  middle_name: column.string(100).nullable(),
  prefix: column.string(50).nullable(),
  suffix: column.string(50).nullable(),
  nickname: column.string(100).nullable(),
  organization: column.string(200).nullable(),
  job_title: column.string(200).nullable(),
  company_mrn: column.string(200).nullable(),
  member_mrn: column.string(200).nullable(),
  emails: column.json<ContactEmail[]>().default([]),
  phones: column.json<ContactPhone[]>().default([]),
  addresses: column.json<ContactAddress[]>().default([]),
  birthday: column.dateOnly().nullable(),
  notes: column.string(10000).default(''),
  tags: column.json<string[]>().default([]),
  search_text: column.text().default(''),
  source: column.string(20).of<ContactSource>(),
  creator_id: column.uuid(),
});

/**
 * What identifies a person, one row per key of a contact: `email` (lower case), `phone` (its
 * digits), `member` (a member MRN) and `name` (lower case, spaces collapsed). Duplicate
 * detection and the suggestions' "already a contact" look-up read it.
 */
export type ContactKey = DeclaredRow<typeof contactKeys>;

export const contactKeys = defineModel(
  'contact_keys',
  {
  contact_id: column.uuid().primaryKey(),
  kind: column.string(10).of<'email' | 'phone' | 'member' | 'name'>().primaryKey(),
  value: column.string(320).primaryKey(),
},
  { timestamps: false },
);

/** The app's copy of a company, fed by `core.companies.company.*`; `deleted` rows stay as tombstones. */
export type CompanyCopy = DeclaredRow<typeof companyCopies>;

export const companyCopies = defineModel('company_copies', {
  company_id: column.uuid().primaryKey(),
  name: column.string(200),
  domain: column.string(253).nullable(),
  revision: column.integer(),
  deleted: column.boolean().default(false),
});

export type SuggestionStatus = 'pending' | 'accepted' | 'dismissed';

/**
 * A person a member interacted with (chatted, met) who is not a contact yet, suggested to that
 * member. One row per member and person (`person_key`: `member:{id}` or `email:{address}`).
 */
export type Suggestion = DeclaredRow<typeof suggestions>;

export const suggestions = defineModel('suggestions', {
  id: column.uuid().primaryKey().defaultRandom(),
  owner_id: column.uuid(),
  person_key: column.string(400),
  member_mrn: column.string(200).nullable(),
  email: column.string(320).nullable(),
  name: column.string(200).nullable(),
  sources: column.json<string[]>().default([]),
  interactions: column.integer().default(0),
  last_interaction_at: column.date(),
  status: column.string(10).of<SuggestionStatus>().default('pending'),
  contact_id: column.uuid().nullable(),
});

/** Interaction events already counted, by event id: a redelivery counts nothing twice. */
export type SeenEvent = DeclaredRow<typeof seenEvents>;

export const seenEvents = defineModel('seen_events', {
  event_id: column.string(100).primaryKey(),
  action: column.string(200),
});

/**
 * The app's copy of a mailbox of the Mail app, fed by `core.mail.mailbox.*`: its address (lower
 * case) and the member it is assigned to (null: nobody). Mail suggestions find their owner here.
 */
export type MailboxCopy = DeclaredRow<typeof mailboxCopies>;

export const mailboxCopies = defineModel('mailbox_copies', {
  mailbox_id: column.uuid().primaryKey(),
  address: column.string(320),
  member_id: column.uuid().nullable(),
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { contacts, contactKeys, companyCopies, suggestions, seenEvents, mailboxCopies };

export type Models = typeof models;
