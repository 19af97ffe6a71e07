import { type components } from '@wpk/ui';

/** A company as the API answers it. */
export type Company = components['schemas']['CompaniesCompany'];

/** The employee ranges the API takes (`size`). */
export const SIZES = ['1-10', '11-50', '51-200', '201-500', '501-1000', '1001-5000', '5001-10000', '10001+'] as const;

/** `City, Country` of a company, or ''. */
export function place(company: Company): string {
  return [company.address.city, company.address.country].filter(Boolean).join(', ');
}
