import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { route } from '../kit.js';
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

/** Companies: list, create, read, update, delete. */
export const routes = [
  route({
    method: 'GET',
    path: '/companies',
    chain: ['companies.companies.read'],
    answers: { collection: COMPANY },
    description: 'Lists companies by name; q matches name or domain, filters by industry, size, domain and owner',
    validate: {
      query: Joi.object({
        q: Joi.string().max(200).allow(''),
        industry: Joi.string().max(100).allow(''),
        size: Joi.string().valid(...COMPANY_SIZES),
        domain: Joi.string().max(300),
        owner_mrn: Joi.string().max(200),
        page: Joi.any(),
        per_page: Joi.any(),
      }),
    },
    async handler(request, ctx) {
      const { rows, count } = await listCompanies(ctx, request.query);
      return ctx.respond.collection(rows.map(presentCompany), count);
    },
  }),
  route({
    method: 'POST',
    path: '/companies',
    chain: ['companies.companies.create'],
    answers: { single: COMPANY },
    description: 'Creates a company; the owner defaults to the caller',
    validate: { payload: Joi.object({ ...fields, name: fields.name.required() }) },
    async handler(request, ctx) {
      const company = await createCompany(ctx, request.payload);
      return ctx.respond.single(presentCompany(company), { self: `/companies/${company.id}` });
    },
  }),
  route({
    method: 'GET',
    path: '/companies/{company_id}',
    chain: ['companies.companies.read'],
    answers: { single: COMPANY },
    description: 'Reads a company',
    validate: { params },
    async handler(request, ctx) {
      const company = await requireCompany(ctx, request.params.company_id);
      return ctx.respond.single(presentCompany(company), { self: `/companies/${company.id}` });
    },
  }),
  route({
    method: 'PUT',
    path: '/companies/{company_id}',
    chain: ['companies.companies.edit'],
    answers: { single: COMPANY },
    description: 'Updates the given fields of a company (null clears an optional one)',
    validate: { params, payload: Joi.object(fields) },
    async handler(request, ctx) {
      const company = await updateCompany(ctx, request.params.company_id, request.payload);
      return ctx.respond.single(presentCompany(company), { self: `/companies/${company.id}` });
    },
  }),
  route({
    method: 'DELETE',
    path: '/companies/{company_id}',
    chain: ['companies.companies.delete'],
    answers: { single: DELETED_COMPANY },
    description: 'Deletes a company',
    validate: { params },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteCompany(ctx, request.params.company_id));
    },
  }),
];
