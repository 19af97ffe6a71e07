import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { ADDRESS_TYPES, EMAIL_TYPES, PHONE_TYPES } from '../services/vcard.js';

/**
 * The records the Contacts app answers with (services/present.ts builds them), as the routes
 * declare them (`answers`): the OpenAPI document, the typed client and the harness's response
 * checks read them. The vCard export answers the file itself (`{ file: 'text/vcard' }`).
 */

const nullableText = () => Joi.string().allow(null);
const contactMrn = () => Joi.string().pattern(/^mrn:contacts:contact:/);

const ADDRESS = recordSchema(
  { type: Joi.string().valid(...ADDRESS_TYPES), street: Joi.string(), city: Joi.string(), region: Joi.string(), postal_code: Joi.string(), country: Joi.string() },
  { optional: ['street', 'city', 'region', 'postal_code', 'country'] },
).description('An address: its empty parts are left out');

export const CONTACT: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  mrn: contactMrn(),
  display_name: Joi.string(),
  given_name: nullableText(),
  family_name: nullableText(),
  middle_name: nullableText(),
  prefix: nullableText(),
  suffix: nullableText(),
  nickname: nullableText(),
  organization: nullableText(),
  job_title: nullableText(),
  company_mrn: field.mrn().allow(null),
  company: recordSchema({ mrn: Joi.string(), name: Joi.string().allow(null).description('Null while the app does not know the company') }).allow(null),
  member_mrn: field.memberMrn().allow(null),
  emails: Joi.array().items(recordSchema({ value: Joi.string(), type: Joi.string().valid(...EMAIL_TYPES) })),
  phones: Joi.array().items(recordSchema({ value: Joi.string(), type: Joi.string().valid(...PHONE_TYPES) })),
  addresses: Joi.array().items(ADDRESS),
  birthday: field.date().allow(null),
  notes: Joi.string().allow(''),
  tags: Joi.array().items(Joi.string()),
  source: Joi.string().valid('manual', 'import', 'suggestion'),
  creator_id: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('ContactsContact');

export const DELETED_CONTACT: JoiObjectSchema = recordSchema({ id: field.uuid(), mrn: contactMrn(), deleted: Joi.boolean().valid(true) }).id('ContactsContactDeleted');

/** A group of contacts that look like one person, and what they share. */
export const DUPLICATE_GROUP: JoiObjectSchema = recordSchema({
  contact_ids: Joi.array().items(field.uuid()).description('Oldest first'),
  reasons: Joi.array().items(recordSchema({ kind: Joi.string().valid('email', 'phone', 'member', 'name'), value: Joi.string() })),
  contacts: Joi.array().items(CONTACT),
}).id('ContactsDuplicateGroup');

export const IMPORT: JoiObjectSchema = recordSchema({ created: field.count(), contact_ids: Joi.array().items(field.uuid()) }).id('ContactsImport');

const SUGGESTION_KEYS = {
  id: field.uuid(),
  name: nullableText(),
  email: nullableText(),
  member_mrn: field.memberMrn().allow(null),
  sources: Joi.array().items(Joi.string()).description('Where the interactions came from'),
  interactions: Joi.number().integer().min(0),
  last_interaction_at: field.instant(),
  status: Joi.string().valid('pending', 'accepted', 'dismissed'),
  contact_id: field.uuid().allow(null),
  created_at: field.instant(),
};

export const SUGGESTION: JoiObjectSchema = recordSchema(SUGGESTION_KEYS).id('ContactsSuggestion');

/** `PATCH /contacts/suggestions/{id}`: the suggestion, with the contact it became when accepted. */
export const SUGGESTION_DECIDED: JoiObjectSchema = recordSchema({ ...SUGGESTION_KEYS, contact: CONTACT }, { optional: ['contact'] }).id('ContactsSuggestionDecided');
