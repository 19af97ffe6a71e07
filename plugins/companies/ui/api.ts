import { kit, type RecordKind, type components } from '@wpk/ui';

/** A company as the API answers it. */
export type Company = components['schemas']['CompaniesCompany'];

/** The employee ranges the API takes (`size`). */
export const SIZES = ['1-10', '11-50', '51-200', '201-500', '501-1000', '1001-5000', '5001-10000', '10001+'] as const;

/** `City, Country` of a company, or ''. */
export function place(company: Company): string {
  return [company.address.city, company.address.country].filter(Boolean).join(', ');
}

/** Companies as the record screens need them: the names, and the app's operations on one. */
export const COMPANIES: RecordKind<Company> = {
  noun: 'company',
  plural: 'companies',
  nameOf: (company) => company.name,
  read: async (id) => (await kit().client.companies.getCompaniesByCompanyId({ params: { company_id: id } })).data as Company,
  create: async (body) => (await kit().client.companies.postCompanies({ body: body as never })).data as Company,
  save: async (company, body) => (await kit().client.companies.putCompaniesByCompanyId({ params: { company_id: company.id }, body: body as never })).data as Company,
  destroy: async (company) => {
    await kit().client.companies.deleteCompaniesByCompanyId({ params: { company_id: company.id } });
  },
};
