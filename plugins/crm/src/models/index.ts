import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** A lead's life: new → contacted → qualified | disqualified (with a reason). */
export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'disqualified'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** A deal's life: open → won | lost (a reason); won or lost → open again (reopened). */
export const DEAL_STATUSES = ['open', 'won', 'lost'] as const;
export type DealStatus = (typeof DEAL_STATUSES)[number];

/** A quote's life: draft → sent → accepted | declined | expired. */
export const QUOTE_STATUSES = ['draft', 'sent', 'accepted', 'declined', 'expired'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

/** One price of a product in a named price list. */
export interface ListPrice {
  price_list: string;
  unit_price: string;
}

/** A line of a quote, frozen when the quote was made. */
export interface QuoteLine {
  product_id: string | null;
  product_mrn: string | null;
  description: string;
  quantity: string;
  unit_price: string;
  amount: string;
}

/** The Contacts app's contacts as this app keeps them (fed by core.contacts.contact.*). */
export const contacts = defineModel('contacts', {
  id: column.uuid().primaryKey(),
  display_name: column.string(300),
  primary_email: column.string(320).nullable(),
  company_mrn: column.string(200).nullable(),
});
export type ContactCopy = DeclaredRow<typeof contacts>;

/** The Companies app's companies as this app keeps them (fed by core.companies.company.*). */
export const companies = defineModel('companies', {
  id: column.uuid().primaryKey(),
  name: column.string(300),
  domain: column.string(300).nullable(),
  revision: column.integer(),
});
export type CompanyCopy = DeclaredRow<typeof companies>;

export const pipelines = defineModel('pipelines', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  /** The pipeline new deals and qualified leads go to when none is named. */
  is_default: column.boolean().default(false),
});
export type Pipeline = DeclaredRow<typeof pipelines>;

export const stages = defineModel('stages', {
  id: column.uuid().primaryKey().defaultRandom(),
  pipeline_id: column.uuid(),
  name: column.string(200),
  /** 0-based order within the pipeline. */
  position: column.integer(),
  /** Percent, 0 to 100: the forecast weighs a deal's amount by it. */
  probability: column.integer(),
  /** Days a deal may stay in the stage before it is overdue (null: no limit). */
  sla_days: column.integer().nullable(),
});
export type Stage = DeclaredRow<typeof stages>;

export const products = defineModel('products', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  sku: column.string(100).nullable(),
  description: column.string(2000).default(''),
  unit_price: column.decimal(18, 2),
  currency: column.string(3),
  /** Other prices by price list (`wholesale`, `partner`), in the product's currency. */
  prices: column.json<ListPrice[]>(),
  active: column.boolean().default(true),
  revision: column.integer().default(1),
});
export type Product = DeclaredRow<typeof products>;

export const deals = defineModel('deals', {
  id: column.uuid().primaryKey().defaultRandom(),
  title: column.string(200),
  pipeline_id: column.uuid(),
  stage_id: column.uuid(),
  status: column.enum(DEAL_STATUSES, 10),
  /** The lines' sum when the deal has lines; otherwise as given. */
  amount: column.decimal(18, 2),
  currency: column.string(3),
  close_date: column.dateOnly().nullable(),
  company_mrn: column.string(200).nullable(),
  contact_mrn: column.string(200).nullable(),
  owner_id: column.uuid().nullable(),
  lost_reason: column.string(1000).nullable(),
  lead_id: column.uuid().nullable(),
  stage_entered_at: column.date(),
  closed_at: column.date().nullable(),
  revision: column.integer().default(1),
  created_by: column.uuid().nullable(),
  /** What is to be done next, and by when (both optional). */
  next_step: column.string(300).nullable(),
  next_step_due: column.dateOnly().nullable(),
});
export type Deal = DeclaredRow<typeof deals>;

export const dealLines = defineModel('deal_lines', {
  id: column.uuid().primaryKey().defaultRandom(),
  deal_id: column.uuid(),
  position: column.integer(),
  product_id: column.uuid().nullable(),
  description: column.string(500),
  quantity: column.decimal(18, 4),
  unit_price: column.decimal(18, 2),
  amount: column.decimal(18, 2),
});
export type DealLine = DeclaredRow<typeof dealLines>;

export const quotes = defineModel('quotes', {
  id: column.uuid().primaryKey().defaultRandom(),
  deal_id: column.uuid(),
  /** Q-0001, Q-0002 … in the workspace. */
  number: column.integer(),
  status: column.enum(QUOTE_STATUSES, 10),
  valid_until: column.dateOnly().nullable(),
  notes: column.string(2000).default(''),
  currency: column.string(3),
  lines: column.json<QuoteLine[]>(),
  total: column.decimal(18, 2),
  sent_at: column.date().nullable(),
  decided_at: column.date().nullable(),
  signature_requested_at: column.date().nullable(),
  /** The Sign envelope that decided it, if any. */
  envelope_id: column.string(100).nullable(),
  created_by: column.uuid().nullable(),
});
export type Quote = DeclaredRow<typeof quotes>;

export const leads = defineModel('leads', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  email: column.string(320).nullable(),
  phone: column.string(50).nullable(),
  company_name: column.string(300).nullable(),
  source: column.string(100).default(''),
  notes: column.string(2000).default(''),
  status: column.enum(LEAD_STATUSES, 20),
  disqualify_reason: column.string(1000).nullable(),
  owner_id: column.uuid().nullable(),
  deal_id: column.uuid().nullable(),
  contact_mrn: column.string(200).nullable(),
  company_mrn: column.string(200).nullable(),
  created_by: column.uuid().nullable(),
});
export type Lead = DeclaredRow<typeof leads>;

/** Sign outcomes already applied, by envelope and outcome: a repeated delivery finds its row and does nothing. */
export const signOutcomes = defineModel('sign_outcomes', {
  id: column.uuid().primaryKey().defaultRandom(),
  envelope_id: column.string(100),
  outcome: column.string(20),
  quote_id: column.uuid().nullable(),
});

/** What kind of thing happened on a subject's timeline. */
export const ACTIVITY_KINDS = ['call', 'mail', 'task', 'meeting'] as const;

/** One entry of a deal's, lead's, contact's or company's timeline, from another app's event. */
export const activities = defineModel('activities', {
  id: column.uuid().primaryKey().defaultRandom(),
  /** The deal, lead, contact or company it is about. */
  subject_mrn: column.string(200),
  kind: column.enum(ACTIVITY_KINDS, 20),
  title: column.string(300),
  occurred_at: column.date(),
  /** The record of the other app (`mrn:calls:call:{id}`), when it has one. */
  source_mrn: column.string(200).nullable(),
  /** The source event's action and record: a repeated delivery finds its row. */
  source_key: column.string(300),
});
export type Activity = DeclaredRow<typeof activities>;

/** A round-robin's place in its list (`leads`: the setting `lead_round_robin`). */
export const rotations = defineModel('rotations', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(50),
  position: column.integer().default(0),
});

/** Every model of the app, by the name services use in `ctx.db`. */
/** A web-to-lead form: its page and its posts name it by `token`; a retired one (`active` false) answers 404. */
export const leadForms = defineModel('lead_forms', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  token: column.string(64),
  source: column.string(100).default('web form'),
  active: column.boolean().default(true),
  created_by: column.uuid(),
});
export type LeadForm = DeclaredRow<typeof leadForms>;

export const models = { contacts, companies, pipelines, stages, products, deals, dealLines, quotes, leads, signOutcomes, activities, rotations, leadForms };
export type Models = typeof models;
