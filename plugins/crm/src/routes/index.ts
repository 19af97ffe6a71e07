import { Joi } from '@wpk/sdk';
import { publicRoute, route, routeFamily } from '../kit.js';
import { DEAL_STATUSES, LEAD_STATUSES, QUOTE_STATUSES, type Activity, type Deal, type Lead, type LeadForm, type Product, type Quote } from '../models/index.js';
import { listActivities, presentActivity } from '../services/activities.js';
import { boardOf, createDeal, deleteDeal, listDeals, moveDeal, presentDeals, requireDeal, updateDeal } from '../services/deals.js';
import { forecast } from '../services/forecast.js';
import { createLead, deleteLead, listLeads, presentLead, qualifyLead, requireLead, updateLead } from '../services/leads.js';
import { CURRENCY_PATTERN, MONEY_PATTERN, QUANTITY_PATTERN } from '../services/money.js';
import { createPipeline, deletePipeline, getPipeline, listPipelines, updatePipeline } from '../services/pipelines.js';
import { createProduct, deleteProduct, listProducts, presentProduct, requireProduct, updateProduct } from '../services/products.js';
import { createQuote, listQuotes, presentQuote, renderQuote, requestSignature, requireQuote, updateQuote } from '../services/quotes.js';
import { ACTIVITY, BOARD, DEAL, DELETED, FORECAST, LEAD, LEAD_FORM, LEAD_RECEIVED, PIPELINE, PRODUCT, PUBLIC_LEAD_FORM, QUOTE, SIGNATURE_REQUEST } from './answers.js';
import { activeForm, createLeadForm, listLeadForms, presentLeadForm, retireLeadForm, submitLead } from '../services/lead-forms.js';

const amount = () => Joi.string().trim().pattern(MONEY_PATTERN, 'decimal amount').description('An exact decimal string: "1250.00"');
const currency = () => Joi.string().pattern(CURRENCY_PATTERN, 'ISO 4217 code').description('ISO 4217, upper case: EUR');
const mrnOf = (app: string, type: string) => Joi.string().pattern(new RegExp(`^mrn:${app}:${type}:[0-9a-fA-F-]{36}$`), `mrn:${app}:${type}:{id}`);

const stage = Joi.object({
  id: Joi.id(),
  name: Joi.string().trim().min(1).max(200).required(),
  probability: Joi.number().integer().min(0).max(100).required(),
  sla_days: Joi.number().integer().min(1).max(3650).allow(null),
});
const stages = Joi.array().items(stage).min(1).max(30);

const productFields = {
  name: Joi.string().trim().min(1).max(200),
  sku: Joi.string().trim().max(100).allow(null, ''),
  description: Joi.string().max(2000).allow(''),
  unit_price: amount(),
  currency: currency(),
  prices: Joi.array().items(Joi.object({ price_list: Joi.string().trim().min(1).max(100).required(), unit_price: amount().required() })).max(50),
  active: Joi.boolean(),
};

const line = Joi.object({
  product_id: Joi.id(),
  description: Joi.string().trim().max(500).allow(''),
  quantity: Joi.string().trim().pattern(QUANTITY_PATTERN, 'decimal quantity').invalid('0').required(),
  unit_price: amount(),
  price_list: Joi.string().trim().min(1).max(100),
});

const dealFields = {
  title: Joi.string().trim().min(1).max(200),
  amount: amount(),
  currency: currency(),
  close_date: Joi.calendarDate().allow(null),
  company_mrn: mrnOf('companies', 'company').allow(null),
  contact_mrn: mrnOf('contacts', 'contact').allow(null),
  owner_id: Joi.memberId().allow(null),
  next_step: Joi.string().trim().max(300).allow(null, '').description('What is to be done next'),
  next_step_due: Joi.calendarDate().allow(null).description('By when (YYYY-MM-DD)'),
  lines: Joi.array().items(line).max(200),
};

const leadFields = {
  name: Joi.string().trim().min(1).max(200),
  email: Joi.string().trim().email({ tlds: false }).max(320).allow(null, ''),
  phone: Joi.string().trim().max(50).allow(null, ''),
  company_name: Joi.string().trim().max(300).allow(null, ''),
  source: Joi.string().trim().max(100).allow(''),
  notes: Joi.string().max(2000).allow(''),
  owner_id: Joi.memberId().allow(null),
};

const dealPresent = async (deal: Deal, ctx: Parameters<typeof presentDeals>[0]) => (await presentDeals(ctx, [deal]))[0];

const pipelines = routeFamily('/crm/pipelines', { record: PIPELINE, present: (pipeline: Awaited<ReturnType<typeof getPipeline>>) => pipeline, links: (pipeline) => ({ self: `/crm/pipelines/${pipeline.id}` }) });
const pipeline = pipelines.at('/{pipeline_id}', { params: Joi.idParams('pipeline_id') });
const products = routeFamily('/crm/products', { record: PRODUCT, present: (product: Product) => presentProduct(product), links: (product) => ({ self: `/crm/products/${product.id}` }) });
const product = products.at('/{product_id}', { params: Joi.idParams('product_id') });
const deals = routeFamily('/crm/deals', { record: DEAL, present: dealPresent, links: (deal) => ({ self: `/crm/deals/${deal.id}` }) });
const deal = deals.at('/{deal_id}', { params: Joi.idParams('deal_id') });
const dealQuotes = deal.at('/quotes', { record: QUOTE, present: (quote: Quote) => presentQuote(quote), links: (quote) => ({ self: `/crm/quotes/${quote.id}` }) });
const quote = routeFamily('/crm/quotes/{quote_id}', { params: Joi.idParams('quote_id'), record: QUOTE, present: (row: Quote) => presentQuote(row), links: (row) => ({ self: `/crm/quotes/${row.id}` }) });
const leads = routeFamily('/crm/leads', { record: LEAD, present: (lead: Lead) => presentLead(lead), links: (lead) => ({ self: `/crm/leads/${lead.id}` }) });
const lead = leads.at('/{lead_id}', { params: Joi.idParams('lead_id') });

/** One page of a list the service answers whole. */
const page = <T>(all: T[], ctx: { page: { offset: number; limit: number } }) => ({ rows: all.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), count: all.length });

/** Every route of the app. */
const leadForms = routeFamily('/crm/lead-forms', { record: LEAD_FORM, present: (form: LeadForm) => presentLeadForm(form), links: (form) => ({ self: `/crm/lead-forms/${form.id}` }) });

/** A public submission's bounds: per sender and per form, counted in the database (shared by every server). */
const SUBMIT_LIMITS = [
  { name: 'lead-form-client', per: 'client' as const, limit: 10, windowSeconds: 3600, message: 'Too many submissions from your address; try again later' },
  { name: 'lead-form-token', per: 'param:token' as const, limit: 500, windowSeconds: 3600, message: 'This form is receiving too many submissions right now; try again later' },
];

/** Web-to-lead: the forms members manage, and the public page's two routes. */
const leadFormRoutes = [
  leadForms.list({ chain: ['crm.lead_forms.manage'], description: 'Lists the web-to-lead forms, newest first (retired ones too)', query: Joi.listQuery(), run: (_request, ctx) => listLeadForms(ctx) }),
  leadForms.post({
    chain: ['crm.lead_forms.manage'],
    description: "Adds a web-to-lead form: a token names it on its public page (page_url) and in its posts; its leads carry source (default 'web form')",
    payload: Joi.object({ name: Joi.string().trim().min(1).max(200).required(), source: Joi.string().trim().min(1).max(100) }),
    run: (request, ctx) => createLeadForm(ctx, request.payload),
  }),
  leadForms.at('/{form_id}', { params: Joi.idParams('form_id') }).delete({
    chain: ['crm.lead_forms.manage'],
    description: 'Retires a form: its page and posts answer 404 from now on (the leads it brought stay)',
    run: (request, ctx) => retireLeadForm(ctx, request.params.form_id),
  }),
  publicRoute({
    method: 'GET', path: '/crm/forms/{token}', answers: { single: PUBLIC_LEAD_FORM }, description: "A web-to-lead form as its public page shows it (404 for an unknown or retired token)",
    validate: { params: Joi.object({ token: Joi.string().max(64).required() }) },
    handler: async (request, ctx) => ctx.respond.single({ name: (await activeForm(ctx, request.params.token)).name, company: ctx.workspace.name }),
  }),
  publicRoute({
    method: 'POST', path: '/crm/forms/{token}/leads', answers: { single: LEAD_RECEIVED },
    description: 'The public form: a new lead (lead.created), rate limited per sender and per form; a submission that looks like spam is answered alike and writes nothing',
    rateLimits: SUBMIT_LIMITS,
    validate: {
      params: Joi.object({ token: Joi.string().max(64).required() }),
      payload: Joi.object({
        name: Joi.string().trim().min(1).max(200).required(),
        email: Joi.string().trim().max(320).email({ tlds: false }).required(),
        company_name: Joi.string().trim().max(300).allow(''),
        phone: Joi.string().trim().max(50).pattern(/^[0-9+()./ -]*$/, 'phone number').allow(''),
        message: Joi.string().max(2000).allow(''),
        website: Joi.string().max(500).allow('').description('Leave empty: a field people never see'),
      }),
    },
    handler: async (request, ctx) => ctx.respond.single(await submitLead(ctx, request.params.token, request.payload)),
  }),
];

export const routes = [
  ...leadFormRoutes,
  pipelines.list({ chain: ['crm.pipelines.read'], description: 'Lists the pipelines with their stages in order, the default first', query: Joi.listQuery(), run: async (_request, ctx) => page(await listPipelines(ctx), ctx) }),
  pipelines.post({
    chain: ['crm.pipelines.manage'],
    description: "Adds a pipeline with its stages in order (each a probability and optional SLA days); the workspace's first pipeline is its default",
    payload: Joi.object({ name: Joi.string().trim().min(1).max(200).required(), is_default: Joi.boolean(), stages: stages.required() }),
    run: (request, ctx) => createPipeline(ctx, request.payload),
  }),
  pipeline.get({ chain: ['crm.pipelines.read'], description: 'Reads a pipeline with its stages', run: (request, ctx) => getPipeline(ctx, request.params.pipeline_id) }),
  pipeline.patch({
    chain: ['crm.pipelines.manage'],
    description: 'Renames a pipeline, makes it the default, or replaces its stages in order (a stage named by id is kept; one left out is removed unless deals are in it)',
    payload: Joi.object({ name: Joi.string().trim().min(1).max(200), is_default: Joi.boolean(), stages }).min(1),
    run: (request, ctx) => updatePipeline(ctx, request.params.pipeline_id, request.payload),
  }),
  pipeline.delete({ chain: ['crm.pipelines.manage'], answers: { single: DELETED }, description: 'Deletes a pipeline that holds no deal (the default only when it is the last one)', run: (request, ctx) => deletePipeline(ctx, request.params.pipeline_id) }),
  pipeline.at('/board', { record: BOARD, present: (board: Awaited<ReturnType<typeof boardOf>>) => board }).get({
    chain: ['crm.deals.read'],
    description: "The pipeline's board: its stages in order, each with its open deals (longest in the stage first), their count and sum per currency",
    run: (request, ctx) => boardOf(ctx, request.params.pipeline_id),
  }),

  products.list({ chain: ['crm.products.read'], description: 'Lists products by name; q matches the name or SKU', query: Joi.listQuery({ q: Joi.string().max(200).allow(''), active: Joi.boolean() }), run: (request, ctx) => listProducts(ctx, request.query as never) }),
  products.post({
    chain: ['crm.products.manage'],
    description: 'Adds a product (mrn:crm:product:{id}, what Finance bill items name in product_mrn) with its list price and other price lists; emits product.created',
    payload: Joi.object({ ...productFields, name: productFields.name.required(), unit_price: productFields.unit_price.required(), currency: productFields.currency.required() }),
    run: (request, ctx) => createProduct(ctx, request.payload),
  }),
  product.get({ chain: ['crm.products.read'], description: 'Reads a product', run: (request, ctx) => requireProduct(ctx, request.params.product_id) }),
  product.patch({ chain: ['crm.products.manage'], description: 'Changes the given fields of a product; emits product.updated naming them', payload: Joi.object(productFields).min(1), run: (request, ctx) => updateProduct(ctx, request.params.product_id, request.payload) }),
  product.delete({ chain: ['crm.products.manage'], answers: { single: DELETED }, description: 'Deletes a product no deal line names (make a used one inactive instead)', run: (request, ctx) => deleteProduct(ctx, request.params.product_id) }),

  deals.list({
    chain: ['crm.deals.read'],
    description: 'Lists deals, most recently changed first, by pipeline, stage, status, owner, company, contact or q in the title',
    query: Joi.listQuery({ pipeline_id: Joi.id(), stage_id: Joi.id(), status: Joi.string().valid(...DEAL_STATUSES), owner_id: Joi.id(), company_mrn: Joi.string().max(200), contact_mrn: Joi.string().max(200), q: Joi.string().max(200).allow('') }),
    run: (request, ctx) => listDeals(ctx, request.query as never),
  }),
  deals.post({
    chain: ['crm.deals.edit'],
    description: "Adds a deal to a pipeline's stage (the default pipeline's first stage unless named), with its amount or lines of products; emits deal.created",
    payload: Joi.object({ ...dealFields, title: dealFields.title.required(), pipeline_id: Joi.id(), stage_id: Joi.id() }),
    run: (request, ctx) => createDeal(ctx, request.payload, { id: ctx.member.id, mrn: ctx.member.mrn }),
  }),
  deal.get({ chain: ['crm.deals.read'], description: 'Reads a deal with its lines', run: (request, ctx) => requireDeal(ctx, request.params.deal_id) }),
  deal.patch({
    chain: ['crm.deals.edit'],
    description: 'Changes the given fields of a deal (its lines replaced when given; amounts only while open), or its status: won (deal.won with the lines), lost (a lost_reason; deal.lost) or open again',
    payload: Joi.object({ ...dealFields, status: Joi.string().valid(...DEAL_STATUSES), lost_reason: Joi.string().trim().min(1).max(1000) }).min(1),
    run: (request, ctx) => updateDeal(ctx, request.params.deal_id, request.payload),
  }),
  deal.delete({ chain: ['crm.deals.delete'], answers: { single: DELETED }, description: 'Deletes a deal with its lines and quotes', run: (request, ctx) => deleteDeal(ctx, request.params.deal_id) }),
  deal.at('/stage').patch({
    chain: ['crm.deals.edit'],
    description: 'Moves an open deal to a stage (of its pipeline or another); emits deal.stage_changed',
    payload: Joi.object({ stage_id: Joi.id().required() }),
    run: (request, ctx) => moveDeal(ctx, request.params.deal_id, request.payload.stage_id),
  }),
  dealQuotes.list({ chain: ['crm.quotes.read'], description: "Lists a deal's quotes, newest first", query: Joi.listQuery(), run: (request, ctx) => listQuotes(ctx, request.params.deal_id) }),
  dealQuotes.post({
    chain: ['crm.quotes.edit'],
    description: "Makes a draft quote of an open deal: its lines frozen from the deal's, numbered Q-0001, Q-0002 … in the workspace",
    payload: Joi.object({ valid_until: Joi.calendarDate(), notes: Joi.string().max(2000).allow('') }),
    run: (request, ctx) => createQuote(ctx, request.params.deal_id, request.payload),
  }),
  quote.get({ chain: ['crm.quotes.read'], description: 'Reads a quote', run: (request, ctx) => requireQuote(ctx, request.params.quote_id) }),
  quote.patch({
    chain: ['crm.quotes.edit'],
    description: "Changes a draft's validity or notes, or moves the quote: sent (quote.sent), accepted (quote.accepted; its open deal is won), declined or expired",
    payload: Joi.object({ status: Joi.string().valid(...QUOTE_STATUSES), valid_until: Joi.calendarDate().allow(null), notes: Joi.string().max(2000).allow('') }).min(1),
    run: (request, ctx) => updateQuote(ctx, request.params.quote_id, request.payload),
  }),
  route({
    method: 'GET',
    path: '/crm/quotes/{quote_id}/pdf',
    chain: ['crm.quotes.read'],
    answers: { file: 'application/pdf' },
    description: 'The quote as a PDF',
    validate: { params: Joi.idParams('quote_id') },
    async handler(request, ctx) {
      const { bytes, filename } = await renderQuote(ctx, await requireQuote(ctx, request.params.quote_id));
      return ctx.respond.file(bytes, { contentType: 'application/pdf', filename });
    },
  }),
  quote.at('/signature-requests', { record: SIGNATURE_REQUEST, present: (answer: Awaited<ReturnType<typeof requestSignature>>) => answer, links: (answer) => ({ self: `/crm/quotes/${answer.quote_id}` }) }).post({
    chain: ['crm.quotes.edit'],
    description: "Sends a draft or sent quote for signature: a draft is sent first (quote.sent), then quote.signature_requested carries the PDF and the signers, and the Sign app makes the caller's draft envelope",
    payload: Joi.object({
      message: Joi.string().trim().max(2000).allow(''),
      signers: Joi.array().items(Joi.object({
        name: Joi.string().trim().min(1).max(200).required(),
        email: Joi.string().trim().email({ tlds: false }).max(320).required(),
        member_id: Joi.memberId(),
        role: Joi.string().valid('signer', 'approver', 'copy'),
        group: Joi.number().integer().min(1).max(20),
      })).min(1).max(20).required(),
    }),
    run: (request, ctx) => requestSignature(ctx, request.params.quote_id, request.payload),
  }),

  routeFamily('/crm/activities', { record: ACTIVITY, present: (activity: Activity) => presentActivity(activity) }).list({
    chain: ['crm.activities.read'],
    description: "A deal's, lead's, contact's or company's activity timeline, newest first: calls ended on it and mail sent to it (from the Calls and Mail apps' events)",
    query: Joi.listQuery({ subject_mrn: Joi.string().max(200).required() }),
    run: (request, ctx) => listActivities(ctx, request.query.subject_mrn as string),
  }),
  route({
    method: 'GET',
    path: '/crm/forecast',
    chain: ['crm.forecasts.read'],
    answers: { single: FORECAST },
    description: 'The weighted forecast of a pipeline (the default one unless named) for a period (2026, 2026-Q2 or 2026-05; this quarter by default): open deals closing in it summed per stage and currency, weighed by the stage probability; and what was won',
    validate: { query: Joi.object({ pipeline_id: Joi.id(), period: Joi.string().max(10) }) },
    handler: async (request, ctx) => ctx.respond.single(await forecast(ctx, request.query as never)),
  }),

  leads.list({ chain: ['crm.leads.read'], description: 'Lists leads, newest first, by status, owner or q in the name, e-mail or company', query: Joi.listQuery({ status: Joi.string().valid(...LEAD_STATUSES), owner_id: Joi.id(), q: Joi.string().max(200).allow('') }), run: (request, ctx) => listLeads(ctx, request.query as never) }),
  leads.post({ chain: ['crm.leads.edit'], description: 'Adds a lead (new); emits lead.created', payload: Joi.object({ ...leadFields, name: leadFields.name.required() }), run: (request, ctx) => createLead(ctx, request.payload) }),
  lead.get({ chain: ['crm.leads.read'], description: 'Reads a lead', run: (request, ctx) => requireLead(ctx, request.params.lead_id) }),
  lead.patch({
    chain: ['crm.leads.edit'],
    description: 'Changes the given fields of a lead, or moves it: contacted, or disqualified with a disqualify_reason (lead.disqualified)',
    payload: Joi.object({ ...leadFields, status: Joi.string().valid(...LEAD_STATUSES), disqualify_reason: Joi.string().trim().min(1).max(1000) }).min(1),
    run: (request, ctx) => updateLead(ctx, request.params.lead_id, request.payload),
  }),
  lead.delete({ chain: ['crm.leads.delete'], answers: { single: DELETED }, description: 'Deletes a lead (a deal made from it stays)', run: (request, ctx) => deleteLead(ctx, request.params.lead_id) }),
  lead.at('/qualify').post({
    chain: ['crm.leads.edit', 'crm.deals.edit'],
    description: "Qualifies a new or contacted lead: it is matched to the kept contacts (by e-mail) and companies (by name or domain) and a deal is made naming them (lead.qualified, deal.created)",
    payload: Joi.object({ pipeline_id: Joi.id(), stage_id: Joi.id(), title: Joi.string().trim().min(1).max(200), amount: amount(), currency: currency(), close_date: Joi.calendarDate() }),
    run: (request, ctx) => qualifyLead(ctx, request.params.lead_id, request.payload),
  }),
];
