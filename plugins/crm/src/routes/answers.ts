import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { ACTIVITY_KINDS, DEAL_STATUSES, LEAD_STATUSES, QUOTE_STATUSES } from '../models/index.js';

const money = () => Joi.string().pattern(/^-?\d+\.\d{2}$/).description('An exact decimal string, two decimals');
const mrn = () => Joi.string().allow(null);

const STAGE = recordSchema({ id: field.uuid(), name: Joi.string(), position: Joi.number().integer(), probability: Joi.number().integer().min(0).max(100), sla_days: Joi.number().integer().allow(null) }).id('CrmStage');

export const PIPELINE: JoiObjectSchema = recordSchema({
  id: field.uuid(), name: Joi.string(), is_default: Joi.boolean(), stages: Joi.array().items(STAGE), created_at: field.instant(), updated_at: field.instant(),
}).id('CrmPipeline');

export const DELETED: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('CrmDeleted');

export const PRODUCT: JoiObjectSchema = recordSchema({
  id: field.uuid(), mrn: Joi.string(), name: Joi.string(), sku: Joi.string().allow(null), description: Joi.string().allow(''), unit_price: money(), currency: Joi.string(),
  prices: Joi.array().items(recordSchema({ price_list: Joi.string(), unit_price: money() }).id('CrmListPrice')), active: Joi.boolean(), revision: Joi.number().integer(),
  created_at: field.instant(), updated_at: field.instant(),
}).id('CrmProduct');

const LINE = recordSchema({
  id: field.uuid(), product_id: field.uuid().allow(null), product_mrn: mrn(), description: Joi.string(), quantity: Joi.string(), unit_price: money(), amount: money(),
}).id('CrmDealLine');

export const DEAL: JoiObjectSchema = recordSchema({
  id: field.uuid(), mrn: Joi.string(), title: Joi.string(), pipeline_id: field.uuid(), stage_id: field.uuid(), stage_name: Joi.string().allow(null), probability: Joi.number().integer(),
  status: field.oneOf(DEAL_STATUSES), amount: money(), currency: Joi.string(), close_date: field.date().allow(null), company_mrn: mrn(), contact_mrn: mrn(), owner_id: field.uuid().allow(null),
  lost_reason: Joi.string().allow(null), lead_id: field.uuid().allow(null), stage_entered_at: field.instant(), overdue: Joi.boolean().description("Open and longer in its stage than the stage's SLA days"),
  next_step: Joi.string().allow(null), next_step_due: field.date().allow(null),
  next_step_overdue: Joi.boolean().description('Open, and its next step was due before today'),
  closed_at: field.instant().allow(null), lines: Joi.array().items(LINE), revision: Joi.number().integer(), created_at: field.instant(), updated_at: field.instant(),
}).id('CrmDeal');

const TOTAL = recordSchema({ currency: Joi.string(), amount: money() }).id('CrmAmount');

export const BOARD: JoiObjectSchema = recordSchema({
  pipeline_id: field.uuid(), name: Joi.string(),
  stages: Joi.array().items(recordSchema({
    id: field.uuid(), name: Joi.string(), position: Joi.number().integer(), probability: Joi.number().integer(), sla_days: Joi.number().integer().allow(null),
    count: Joi.number().integer(), totals: Joi.array().items(TOTAL), deals: Joi.array().items(DEAL),
  }).id('CrmBoardStage')),
}).id('CrmBoard');

export const FORECAST: JoiObjectSchema = recordSchema({
  pipeline_id: field.uuid(), period: Joi.string(), from: field.date(), to: field.date(),
  stages: Joi.array().items(recordSchema({
    stage_id: field.uuid(), name: Joi.string(), probability: Joi.number().integer(), deals: Joi.number().integer(),
    amounts: Joi.array().items(recordSchema({ currency: Joi.string(), amount: money(), weighted: money() }).id('CrmForecastAmount')),
  }).id('CrmForecastStage')),
  totals: Joi.array().items(recordSchema({ currency: Joi.string(), amount: money(), weighted: money(), won: money() }).id('CrmForecastTotal')),
}).id('CrmForecast');

const QUOTE_LINE = recordSchema({ product_id: field.uuid().allow(null), product_mrn: mrn(), description: Joi.string(), quantity: Joi.string(), unit_price: money(), amount: money() }).id('CrmQuoteLine');

export const QUOTE: JoiObjectSchema = recordSchema({
  id: field.uuid(), mrn: Joi.string(), number: Joi.string(), deal_id: field.uuid(), status: field.oneOf(QUOTE_STATUSES), valid_until: field.date().allow(null), notes: Joi.string().allow(''),
  currency: Joi.string(), lines: Joi.array().items(QUOTE_LINE), total: money(), sent_at: field.instant().allow(null), decided_at: field.instant().allow(null),
  signature_requested_at: field.instant().allow(null), envelope_id: Joi.string().allow(null), pdf_url: Joi.string(), created_at: field.instant(), updated_at: field.instant(),
}).id('CrmQuote');

export const SIGNATURE_REQUEST: JoiObjectSchema = recordSchema({
  quote_id: field.uuid(), source_mrn: Joi.string(), status: Joi.string().valid('sent'), title: Joi.string(),
  signers: Joi.array().items(recordSchema({ name: Joi.string(), email: Joi.string(), member_id: field.uuid(), role: field.oneOf(['signer', 'approver', 'copy']), group: Joi.number().integer() }, { optional: ['member_id'] }).id('CrmSigner')),
  filename: Joi.string(), sha256: Joi.string(), size_bytes: Joi.number().integer(), requested_at: field.instant(),
}).id('CrmSignatureRequest');

export const LEAD: JoiObjectSchema = recordSchema({
  id: field.uuid(), mrn: Joi.string(), name: Joi.string(), email: Joi.string().allow(null), phone: Joi.string().allow(null), company_name: Joi.string().allow(null), source: Joi.string().allow(''),
  notes: Joi.string().allow(''), status: field.oneOf(LEAD_STATUSES), disqualify_reason: Joi.string().allow(null), owner_id: field.uuid().allow(null), deal_id: field.uuid().allow(null),
  contact_mrn: mrn(), company_mrn: mrn(), created_at: field.instant(), updated_at: field.instant(),
}).id('CrmLead');

export const ACTIVITY: JoiObjectSchema = recordSchema({
  id: field.uuid(), subject_mrn: Joi.string(), kind: field.oneOf([...ACTIVITY_KINDS]), title: Joi.string(), occurred_at: field.instant(), source_mrn: Joi.string().allow(null),
}).id('CrmActivity');

/** A web-to-lead form as the members who manage it see it (services/lead-forms.ts). */
export const LEAD_FORM: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  token: Joi.string().description('Names the form on its public page and in its posts'),
  source: Joi.string(),
  active: Joi.boolean(),
  page_url: Joi.string().description("The form's public page, on the workspace's host"),
  created_by: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('CrmLeadForm');

/** A form as its public page reads it. */
export const PUBLIC_LEAD_FORM: JoiObjectSchema = recordSchema({ name: Joi.string(), company: Joi.string() }).id('CrmPublicLeadForm');

/** What a public submission is answered, spam or not. */
export const LEAD_RECEIVED: JoiObjectSchema = recordSchema({ received: Joi.boolean().valid(true) }).id('CrmLeadReceived');
