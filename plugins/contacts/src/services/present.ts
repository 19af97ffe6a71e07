import { formatMrn, isUuid, parseMrn, type SearchDocument } from '@wpk/sdk';
import type { Contact, Suggestion } from '../models/index.js';

/** The id inside `mrn:{app}:{resource}:{uuid}`, lower case; null when `value` is no such MRN. */
export function idFromMrn(value: unknown, app: string, resource: string): string | null {
  const mrn = typeof value === 'string' ? parseMrn(value) : null;
  return mrn && mrn.app === app && mrn.resource === resource && isUuid(mrn.id) ? mrn.id.toLowerCase() : null;
}

/** The MRN other apps reference a contact by: `mrn:contacts:contact:{id}`. */
export function contactMrn(contactId: string): string {
  return formatMrn('contacts', 'contact', contactId);
}

/** How a contact looks in API answers; `companyName` comes from the app's copy of companies (null: unknown). */
export function presentContact(contact: Contact, companyName: string | null) {
  return {
    id: contact.id,
    mrn: contactMrn(contact.id),
    display_name: contact.display_name,
    given_name: contact.given_name,
    family_name: contact.family_name,
    middle_name: contact.middle_name,
    prefix: contact.prefix,
    suffix: contact.suffix,
    nickname: contact.nickname,
    organization: contact.organization,
    job_title: contact.job_title,
    company_mrn: contact.company_mrn,
    company: contact.company_mrn ? { mrn: contact.company_mrn, name: companyName } : null,
    member_mrn: contact.member_mrn,
    emails: contact.emails,
    phones: contact.phones,
    addresses: contact.addresses,
    birthday: contact.birthday,
    notes: contact.notes,
    tags: contact.tags,
    source: contact.source,
    creator_id: contact.creator_id,
    created_at: contact.created_at,
    updated_at: contact.updated_at,
  };
}

export type PresentedContact = ReturnType<typeof presentContact>;

/** How a suggestion looks in API answers. */
export function presentSuggestion(suggestion: Suggestion) {
  return {
    id: suggestion.id,
    name: suggestion.name,
    email: suggestion.email,
    member_mrn: suggestion.member_mrn,
    sources: suggestion.sources,
    interactions: suggestion.interactions,
    last_interaction_at: suggestion.last_interaction_at,
    status: suggestion.status,
    contact_id: suggestion.contact_id,
    created_at: suggestion.created_at,
  };
}

/** The search document of a contact: found by name and emails; organization, title, phones, tags as details. */
export function contactDocument(contact: Contact, companyName: string | null): SearchDocument {
  const organization = companyName ?? contact.organization;
  return {
    type: 'contact',
    id: contact.id,
    title: contact.display_name,
    subtitle: [contact.job_title, organization].filter(Boolean).join(' · ') || contact.emails[0]?.value || 'Contact',
    url: `/contacts/${contact.id}`,
    names: [contact.display_name, contact.emails.map((email) => email.value).join(' ')],
    details: [organization ?? '', contact.job_title ?? '', contact.phones.map((phone) => phone.value).join(' '), contact.tags.join(' ')],
    filters: { company_mrn: contact.company_mrn },
  };
}
