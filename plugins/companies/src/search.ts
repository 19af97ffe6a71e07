import type { SearchDocument, SearchHooks } from '@wpk/sdk';
import type { Company, Models } from './models/index.js';

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

/** Full re-index of a workspace: every company. */
export const search: Record<string, SearchHooks<Models>> = {
  company: {
    async reindex(ctx) {
      const rows = await ctx.db.companies.findAll({ order: [['created_at', 'ASC'], ['id', 'ASC']] });
      return rows.map(companyDocument);
    },
  },
};
