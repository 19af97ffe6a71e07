import { Joi, type JoiObjectSchema } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { createContact, deleteContact, listContacts, presentContacts, requireContact, updateContact } from '../services/contacts.js';
import { findDuplicates, mergeContacts } from '../services/duplicates.js';
import { acceptSuggestion, dismissSuggestion, listSuggestions } from '../services/suggestions.js';
import { exportContacts, importContacts } from '../services/transfer.js';
import { ADDRESS_TYPES, EMAIL_TYPES, PHONE_TYPES } from '../services/vcard.js';
import { CONTACT, DELETED_CONTACT, DUPLICATE_GROUP, IMPORT, SUGGESTION, SUGGESTION_DECIDED } from './answers.js';

const text = (max: number) => Joi.string().trim().max(max).allow('', null);
const contactParams = Joi.object({ contact_id: Joi.id().required() });
const suggestionParams = Joi.object({ suggestion_id: Joi.id().required() });

/** The fields of a contact a create, an update or an accepted suggestion takes. */
const contactFields = {
  display_name: text(200),
  given_name: text(100),
  family_name: text(100),
  middle_name: text(100),
  prefix: text(50),
  suffix: text(50),
  nickname: text(100),
  organization: text(200),
  job_title: text(200),
  company_mrn: Joi.string().max(200).allow(null),
  // A former colleague stays a person: a contact may keep naming a member who left.
  member_mrn: Joi.memberMrn({ former: true }).allow(null),
  emails: Joi.array()
    .items(Joi.object({ value: Joi.string().trim().email({ tlds: false }).max(320).required(), type: Joi.string().valid(...EMAIL_TYPES) }))
    .max(20),
  phones: Joi.array()
    .items(Joi.object({ value: Joi.string().trim().min(1).max(50).pattern(/\d/).required().messages({ 'string.pattern.base': '{#label} must hold a digit' }), type: Joi.string().valid(...PHONE_TYPES) }))
    .max(20),
  addresses: Joi.array()
    .items(Joi.object({ type: Joi.string().valid(...ADDRESS_TYPES), street: text(500), city: text(100), region: text(100), postal_code: text(20), country: text(100) }))
    .max(10),
  birthday: Joi.calendarDate().allow(null),
  notes: Joi.string().max(10000).allow(''),
  tags: Joi.array().items(Joi.string().trim().min(1).max(50)).max(30),
};

const contactPayload = (): JoiObjectSchema => Joi.object(contactFields);

const contacts = routeFamily('/contacts', { record: CONTACT });
const contact = contacts.at('/{contact_id}', { params: contactParams });
const suggestion = contacts.at('/suggestions/{suggestion_id}', { params: suggestionParams, record: SUGGESTION_DECIDED });

/** Contacts, their duplicates and merges, vCard import and export, suggestions. */
export const routes = [
  contacts.list({
    chain: ['contacts.contacts.read'],
    description: 'Lists contacts by display name; q matches names, emails, phones, organization, title and tags',
    query: Joi.listQuery({ q: Joi.string().max(200).allow(''), tag: Joi.string().max(50), company_mrn: Joi.string().max(200), email: Joi.string().max(320) }),
    async handler(request, ctx) {
      const { rows, count } = await listContacts(ctx, request.query);
      return ctx.respond.collection(await presentContacts(ctx, rows), count);
    },
  }),
  contacts.post({
    chain: ['contacts.contacts.create'],
    description: 'Creates a contact; it needs a name, an email or a phone',
    payload: contactPayload(),
    async handler(request, ctx) {
      const contact = await createContact(ctx, request.payload);
      return ctx.respond.single((await presentContacts(ctx, [contact]))[0], { self: `/contacts/${contact.id}` });
    },
  }),
  contact.get({
    chain: ['contacts.contacts.read'],
    description: 'Reads a contact',
    async handler(request, ctx) {
      const contact = await requireContact(ctx, request.params.contact_id);
      return ctx.respond.single((await presentContacts(ctx, [contact]))[0], { self: `/contacts/${contact.id}` });
    },
  }),
  contact.put({
    chain: ['contacts.contacts.edit'],
    description: 'Updates the given fields of a contact (null clears one; a list is replaced whole)',
    payload: contactPayload(),
    async handler(request, ctx) {
      const contact = await updateContact(ctx, request.params.contact_id, request.payload);
      return ctx.respond.single((await presentContacts(ctx, [contact]))[0], { self: `/contacts/${contact.id}` });
    },
  }),
  contact.delete({
    chain: ['contacts.contacts.delete'],
    answers: { single: DELETED_CONTACT },
    description: 'Deletes a contact',
    run: (request, ctx) => deleteContact(ctx, request.params.contact_id),
  }),
  contacts.at('/duplicates').list({
    chain: ['contacts.contacts.read'],
    answers: { collection: DUPLICATE_GROUP },
    description: 'Groups of contacts sharing an email, a phone, a member or their full name',
    query: Joi.listQuery(),
    async handler(_request, ctx) {
      const { rows, count } = await findDuplicates(ctx);
      return ctx.respond.collection(rows, count);
    },
  }),
  contact.at('/merges').post({
    chain: ['contacts.contacts.edit', 'contacts.contacts.delete'],
    description: 'Merges contact_ids into this contact and deletes them',
    payload: Joi.object({ contact_ids: Joi.array().items(Joi.id()).min(1).max(20).required() }),
    async handler(request, ctx) {
      const contact = await mergeContacts(ctx, request.params.contact_id, request.payload.contact_ids);
      return ctx.respond.single((await presentContacts(ctx, [contact]))[0], { self: `/contacts/${contact.id}` });
    },
  }),
  contacts.at('/imports').post({
    chain: ['contacts.contacts.import'],
    answers: { single: IMPORT },
    description: 'Imports every card of a vCard 4.0 (or 3.0) text, all or none',
    payload: Joi.object({ vcard: Joi.string().min(1).max(1_000_000).required() }),
    async handler(request, ctx) {
      return ctx.respond.single(await importContacts(ctx, request.payload.vcard), { contacts: '/contacts' });
    },
  }),
  contacts.at('/vcard').get({
    chain: ['contacts.contacts.export'],
    answers: { file: 'text/vcard' },
    description: 'Exports contacts (all, or by ids, tag, company) as one vCard 4.0 file (text/vcard)',
    query: Joi.object({
      ids: Joi.string()
        .max(20_000)
        .custom((value: string) => value.split(',').map((id) => id.trim()).filter(Boolean)),
      tag: Joi.string().max(50),
      company_mrn: Joi.string().max(200),
    }),
    async handler(request, ctx) {
      const exported = await exportContacts(ctx, request.query as { ids?: string[]; tag?: string; company_mrn?: string });
      return ctx.respond.file(exported.vcard, { contentType: exported.content_type, filename: exported.filename });
    },
  }),
  contacts.at('/suggestions').list({
    chain: ['contacts.suggestions.review'],
    answers: { collection: SUGGESTION },
    description: "The caller's suggestions (default pending), most interactions first",
    query: Joi.listQuery({ status: Joi.string().valid('pending', 'accepted', 'dismissed') }),
    run: (request, ctx) => listSuggestions(ctx, request.query.status as 'pending' | 'accepted' | 'dismissed' | undefined),
  }),
  suggestion.patch({
    chain: ['contacts.suggestions.review'],
    description: 'Accepts a suggestion (it becomes a contact; contact fields may be added) or dismisses it',
    payload: Joi.object({ status: Joi.string().valid('accepted', 'dismissed').required(), ...contactFields, member_mrn: Joi.forbidden() }),
    async handler(request, ctx) {
      const { status, ...fields } = request.payload;
      const id = request.params.suggestion_id;
      const data = status === 'accepted' ? await acceptSuggestion(ctx, id, fields) : await dismissSuggestion(ctx, id);
      return ctx.respond.single(data, { self: `/contacts/suggestions/${id}`, ...(data.contact_id ? { contact: `/contacts/${data.contact_id}` } : {}) });
    },
  }),
  suggestion.delete({
    chain: ['contacts.suggestions.review'],
    answers: { single: SUGGESTION },
    description: 'Dismisses a suggestion',
    run: (request, ctx) => dismissSuggestion(ctx, request.params.suggestion_id),
  }),
];
