import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { COMPANY_SIZES } from '../models/index.js';
import { createCompany, deleteCompany, listCompanies, requireCompany, updateCompany } from '../services/companies.js';
import { presentCompany } from '../services/present.js';

/** `{company_id}`: an id of any shape (an unknown one is a 404). */
const params = Joi.object({ company_id: Joi.id().required() });

/** A postal address; each part optional, `null` or empty clears it. */
const address = (): JoiObjectSchema =>
  Joi.object({
    street: Joi.string().trim().max(200).allow('', null),
    city: Joi.string().trim().max(100).allow('', null),
    region: Joi.string().trim().max(100).allow('', null),
    postal_code: Joi.string().trim().max(20).allow('', null),
    country: Joi.string().trim().max(100).allow('', null),
  });

/** The fields a create or an update takes. */
const fields = {
  name: Joi.string().trim().min(1).max(200),
  domain: Joi.string().trim().max(300).allow('', null),
  industry: Joi.string().trim().max(100).allow('', null),
  size: Joi.string()
    .valid(...COMPANY_SIZES)
    .allow(null),
  description: Joi.string().max(5000).allow(''),
  address: address().allow(null),
  owner_mrn: Joi.memberMrn(),
};

const nullableText = () => Joi.string().allow('', null);

/** A company as every route answers it (services/present.ts); checked against each answer in the tests. */
export const COMPANY: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  mrn: Joi.string().pattern(/^mrn:companies:company:/),
  name: Joi.string(),
  domain: nullableText(),
  industry: nullableText(),
  size: Joi.string().valid(...COMPANY_SIZES).allow(null),
  description: Joi.string().allow('', null),
  address: recordSchema({ street: nullableText(), city: nullableText(), region: nullableText(), postal_code: nullableText(), country: nullableText() }),
  owner_id: field.uuid(),
  owner_mrn: field.memberMrn(),
  creator_id: field.uuid(),
  revision: Joi.number().integer().min(1).description('Rises by one with every change; copies kept by other apps keep the highest'),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('CompaniesCompany');

/** `DELETE /companies/{company_id}`. */
export const DELETED_COMPANY: JoiObjectSchema = recordSchema({ id: field.uuid(), mrn: Joi.string().pattern(/^mrn:companies:company:/), deleted: Joi.boolean().valid(true) }).id('CompaniesDeletedCompany');

const companies = routeFamily('/companies', { record: COMPANY, present: presentCompany, links: (company) => ({ self: `/companies/${company.id}` }) });
const company = companies.at('/{company_id}', { params });

/** Companies: list, create, read, update, delete. */
export const routes = [
  companies.list({
    chain: ['companies.companies.read'],
    description: 'Lists companies by name; q matches name or domain, filters by industry, size, domain and owner',
    query: Joi.object({
      q: Joi.string().max(200).allow(''),
      industry: Joi.string().max(100).allow(''),
      size: Joi.string().valid(...COMPANY_SIZES),
      domain: Joi.string().max(300),
      owner_mrn: Joi.string().max(200),
      page: Joi.any(),
      per_page: Joi.any(),
    }),
    run: (request, ctx) => listCompanies(ctx, request.query),
  }),
  companies.post({
    chain: ['companies.companies.create'],
    description: 'Creates a company; the owner defaults to the caller',
    payload: Joi.object({ ...fields, name: fields.name.required() }),
    run: (request, ctx) => createCompany(ctx, request.payload),
  }),
  company.get({
    chain: ['companies.companies.read'],
    description: 'Reads a company',
    run: (request, ctx) => requireCompany(ctx, request.params.company_id),
  }),
  company.put({
    chain: ['companies.companies.edit'],
    description: 'Updates the given fields of a company (null clears an optional one)',
    payload: Joi.object(fields),
    run: (request, ctx) => updateCompany(ctx, request.params.company_id, request.payload),
  }),
  company.delete({
    chain: ['companies.companies.delete'],
    answers: { single: DELETED_COMPANY },
    description: 'Deletes a company',
    run: (request, ctx) => deleteCompany(ctx, request.params.company_id),
  }),
];
