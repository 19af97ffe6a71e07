import { DataTypes, defineModel } from '@wpk/sdk';

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
export interface Contact {
  id: string;
  display_name: string;
  given_name: string | null;
  family_name: string | null;
  middle_name: string | null;
  prefix: string | null;
  suffix: string | null;
  nickname: string | null;
  organization: string | null;
  job_title: string | null;
  company_mrn: string | null;
  member_mrn: string | null;
  emails: ContactEmail[];
  phones: ContactPhone[];
  addresses: ContactAddress[];
  birthday: string | null;
  notes: string;
  tags: string[];
  search_text: string;
  source: ContactSource;
  creator_id: string;
  created_at: Date;
  updated_at: Date;
}

export const contacts = defineModel<Contact>('contacts', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  display_name: { type: DataTypes.STRING(200), allowNull: false },
  given_name: { type: DataTypes.STRING(100), allowNull: true },
  family_name: { type: DataTypes.STRING(100), allowNull: true },
  middle_name: { type: DataTypes.STRING(100), allowNull: true },
  prefix: { type: DataTypes.STRING(50), allowNull: true },
  suffix: { type: DataTypes.STRING(50), allowNull: true },
  nickname: { type: DataTypes.STRING(100), allowNull: true },
  organization: { type: DataTypes.STRING(200), allowNull: true },
  job_title: { type: DataTypes.STRING(200), allowNull: true },
  company_mrn: { type: DataTypes.STRING(200), allowNull: true },
  member_mrn: { type: DataTypes.STRING(200), allowNull: true },
  emails: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
  phones: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
  addresses: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
  birthday: { type: DataTypes.DATEONLY, allowNull: true },
  notes: { type: DataTypes.STRING(10000), allowNull: false, defaultValue: '' },
  tags: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
  search_text: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
  source: { type: DataTypes.STRING(20), allowNull: false },
  creator_id: { type: DataTypes.UUID, allowNull: false },
});

/**
 * What identifies a person, one row per key of a contact: `email` (lower case), `phone` (its
 * digits), `member` (a member MRN) and `name` (lower case, spaces collapsed). Duplicate
 * detection and the suggestions' "already a contact" look-up read it.
 */
export interface ContactKey {
  contact_id: string;
  kind: 'email' | 'phone' | 'member' | 'name';
  value: string;
}

export const contactKeys = defineModel<ContactKey>(
  'contact_keys',
  {
    contact_id: { type: DataTypes.UUID, primaryKey: true },
    kind: { type: DataTypes.STRING(10), primaryKey: true },
    value: { type: DataTypes.STRING(320), primaryKey: true },
  },
  { timestamps: false },
);

/** The app's copy of a company, fed by `core.companies.company.*`; `deleted` rows stay as tombstones. */
export interface CompanyCopy {
  company_id: string;
  name: string;
  domain: string | null;
  revision: number;
  deleted: boolean;
}

export const companyCopies = defineModel<CompanyCopy>('company_copies', {
  company_id: { type: DataTypes.UUID, primaryKey: true },
  name: { type: DataTypes.STRING(200), allowNull: false },
  domain: { type: DataTypes.STRING(253), allowNull: true },
  revision: { type: DataTypes.INTEGER, allowNull: false },
  deleted: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
});

export type SuggestionStatus = 'pending' | 'accepted' | 'dismissed';

/**
 * A person a member interacted with (chatted, met) who is not a contact yet, suggested to that
 * member. One row per member and person (`person_key`: `member:{id}` or `email:{address}`).
 */
export interface Suggestion {
  id: string;
  owner_id: string;
  person_key: string;
  member_mrn: string | null;
  email: string | null;
  name: string | null;
  sources: string[];
  interactions: number;
  last_interaction_at: Date;
  status: SuggestionStatus;
  contact_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export const suggestions = defineModel<Suggestion>('suggestions', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  owner_id: { type: DataTypes.UUID, allowNull: false },
  person_key: { type: DataTypes.STRING(400), allowNull: false },
  member_mrn: { type: DataTypes.STRING(200), allowNull: true },
  email: { type: DataTypes.STRING(320), allowNull: true },
  name: { type: DataTypes.STRING(200), allowNull: true },
  sources: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
  interactions: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  last_interaction_at: { type: DataTypes.DATE, allowNull: false },
  status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'pending' },
  contact_id: { type: DataTypes.UUID, allowNull: true },
});

/** Interaction events already counted, by event id: a redelivery counts nothing twice. */
export interface SeenEvent {
  event_id: string;
  action: string;
}

export const seenEvents = defineModel<SeenEvent>('seen_events', {
  event_id: { type: DataTypes.STRING(100), primaryKey: true },
  action: { type: DataTypes.STRING(200), allowNull: false },
});

/**
 * The app's copy of a mailbox of the Mail app, fed by `core.mail.mailbox.*`: its address (lower
 * case) and the member it is assigned to (null: nobody). Mail suggestions find their owner here.
 */
export interface MailboxCopy {
  mailbox_id: string;
  address: string;
  member_id: string | null;
}

export const mailboxCopies = defineModel<MailboxCopy>('mailbox_copies', {
  mailbox_id: { type: DataTypes.UUID, primaryKey: true },
  address: { type: DataTypes.STRING(320), allowNull: false },
  member_id: { type: DataTypes.UUID, allowNull: true },
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { contacts, contactKeys, companyCopies, suggestions, seenEvents, mailboxCopies };

export type Models = typeof models;
