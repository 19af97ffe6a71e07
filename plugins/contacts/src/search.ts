import type { SearchDocument, SearchHooks } from '@wpk/sdk';
import type { Contact, Models } from './models/index.js';
import { companyNames } from './services/contacts.js';

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

/** Full re-index of a workspace: every contact, with company names from the app's copy. */
export const search: Record<string, SearchHooks<Models>> = {
  contact: {
    async reindex(ctx) {
      const rows = await ctx.db.contacts.findAll({ order: [['created_at', 'ASC'], ['id', 'ASC']] });
      const names = await companyNames(ctx as never, rows.map((row) => row.company_mrn));
      return rows.map((row) => contactDocument(row, row.company_mrn ? (names.get(row.company_mrn) ?? null) : null));
    },
  },
};
