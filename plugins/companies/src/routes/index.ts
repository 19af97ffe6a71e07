import { defineRoute, Joi, type JoiObjectSchema } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { COMPANY_SIZES, type Models } from '../models/index.js';
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
  owner_mrn: Joi.string().max(200),
};

/** Companies: list, create, read, update, delete. */
export const routes = [
  defineRoute<Models, AppTypes>({
    method: 'GET',
    path: '/companies',
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
  defineRoute<Models, AppTypes>({
    method: 'POST',
    path: '/companies',
    description: 'Creates a company; the owner defaults to the caller',
    validate: { payload: Joi.object({ ...fields, name: fields.name.required() }) },
    async handler(request, ctx) {
      const company = await createCompany(ctx, request.payload);
      return ctx.respond.single(presentCompany(company), { self: `/companies/${company.id}` });
    },
  }),
  defineRoute<Models, AppTypes>({
    method: 'GET',
    path: '/companies/{company_id}',
    description: 'Reads a company',
    validate: { params },
    async handler(request, ctx) {
      const company = await requireCompany(ctx, request.params.company_id);
      return ctx.respond.single(presentCompany(company), { self: `/companies/${company.id}` });
    },
  }),
  defineRoute<Models, AppTypes>({
    method: 'PUT',
    path: '/companies/{company_id}',
    description: 'Updates the given fields of a company (null clears an optional one)',
    validate: { params, payload: Joi.object(fields) },
    async handler(request, ctx) {
      const company = await updateCompany(ctx, request.params.company_id, request.payload);
      return ctx.respond.single(presentCompany(company), { self: `/companies/${company.id}` });
    },
  }),
  defineRoute<Models, AppTypes>({
    method: 'DELETE',
    path: '/companies/{company_id}',
    description: 'Deletes a company',
    validate: { params },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteCompany(ctx, request.params.company_id));
    },
  }),
];
