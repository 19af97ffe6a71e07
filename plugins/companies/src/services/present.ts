import { formatMrn, memberMrn, type SearchDocument } from '@wpk/sdk';
import type { Company } from '../models/index.js';

/** The MRN other apps reference a company by: `mrn:companies:company:{id}`. */
export function companyMrn(companyId: string): string {
  return formatMrn('companies', 'company', companyId);
}

/** How a company looks in API answers: member references as id and MRN, instants as ISO strings. */
export function presentCompany(company: Company) {
  return {
    id: company.id,
    mrn: companyMrn(company.id),
    name: company.name,
    domain: company.domain,
    industry: company.industry,
    size: company.size,
    description: company.description,
    address: {
      street: company.address.street ?? null,
      city: company.address.city ?? null,
      region: company.address.region ?? null,
      postal_code: company.address.postal_code ?? null,
      country: company.address.country ?? null,
    },
    owner_id: company.owner_id,
    owner_mrn: memberMrn(company.owner_id),
    creator_id: company.creator_id,
    revision: company.revision,
    created_at: company.created_at,
    updated_at: company.updated_at,
  };
}

/** The display fields every company event carries (absent when empty), so a copy can show the company. */
export function displayFields(company: Company) {
  return {
    company_id: company.id,
    company_mrn: companyMrn(company.id),
    name: company.name,
    domain: company.domain,
    industry: company.industry,
    size: company.size,
    city: company.address.city ?? null,
    country: company.address.country ?? null,
    owner_mrn: memberMrn(company.owner_id),
    revision: company.revision,
  };
}

/** The search document of a company: found by name and domain; industry, city, country and description as details. */
export function companyDocument(company: Company): SearchDocument {
  const place = [company.address.city, company.address.country].filter(Boolean).join(', ');
  return {
    type: 'company',
    id: company.id,
    badge: company.domain ?? '',
    title: company.name,
    subtitle: [company.industry, place].filter(Boolean).join(' · ') || 'Company',
    url: `/companies/${company.id}`,
    names: [company.name, company.domain ?? ''],
    details: [company.industry ?? '', company.address.city ?? '', company.address.country ?? '', company.description],
    filters: { industry: company.industry, company_size: company.size },
  };
}
