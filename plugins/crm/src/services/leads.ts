import { formatMrn, InvalidError, likePattern, NotFoundError, Op, type SearchDocument } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { CompanyCopy, ContactCopy, Lead, LeadStatus } from '../models/index.js';
import { createDeal, dealMrn } from './deals.js';
import { leadMachine } from './machines.js';

export interface LeadInput {
  name?: string;
  email?: string | null;
  phone?: string | null;
  company_name?: string | null;
  source?: string;
  notes?: string;
  owner_id?: string | null;
  status?: LeadStatus;
  disqualify_reason?: string;
}

export const leadMrn = (id: string): string => formatMrn('crm', 'lead', id);

export function presentLead(lead: Lead) {
  return {
    id: lead.id, mrn: leadMrn(lead.id), name: lead.name, email: lead.email, phone: lead.phone, company_name: lead.company_name, source: lead.source, notes: lead.notes,
    status: lead.status, disqualify_reason: lead.disqualify_reason, owner_id: lead.owner_id, deal_id: lead.deal_id, contact_mrn: lead.contact_mrn, company_mrn: lead.company_mrn,
    created_at: lead.created_at, updated_at: lead.updated_at,
  };
}

export async function requireLead(ctx: AnyCtx, leadId: string, lock?: 'update'): Promise<Lead> {
  const lead = await ctx.db.leads.findById(leadId, lock ? { lock } : {});
  if (!lead) throw new NotFoundError(`Lead ${leadId} not found`);
  return lead;
}

export function listLeads(ctx: Ctx, query: { status?: LeadStatus; owner_id?: string; q?: string }) {
  const where: Record<PropertyKey, unknown> = {};
  if (query.status) where.status = query.status;
  if (query.owner_id) where.owner_id = query.owner_id;
  if (query.q) where[Op.or] = ['name', 'email', 'company_name'].map((key) => ({ [key]: { [Op.iLike]: likePattern(query.q!) } }));
  return ctx.db.leads.findAndCountAll({ where, order: [['created_at', 'DESC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

export function leadDocument(lead: Lead): SearchDocument {
  return {
    type: 'lead', id: lead.id, title: lead.name, subtitle: [lead.company_name, lead.email, lead.status].filter(Boolean).join(' · '), url: `/leads/${lead.id}`,
    names: [lead.name, ...(lead.email ? [lead.email] : []), ...(lead.company_name ? [lead.company_name] : [])], details: lead.notes ? [lead.notes] : [], filters: { status: lead.status },
  };
}

/**
 * The owner of a new lead nobody named: the next active member of the setting `lead_round_robin`
 * after the last one given a lead (removed members are skipped), or null when the list is empty.
 */
export async function nextOwner(ctx: AnyCtx): Promise<string | null> {
  const list = (ctx.settings as { lead_round_robin?: string[] }).lead_round_robin ?? [];
  if (!list.length) return null;
  await ctx.lock('rotation:leads');
  const rotation = await ctx.db.rotations.upsert({ name: 'leads', position: 0 }, { conflictFields: ['name'], update: [] });
  const members = await ctx.members.getMany(list);
  for (let step = 0; step < list.length; step++) {
    const index = (rotation.position + step) % list.length;
    const member = members.get(list[index].toLowerCase());
    if (!member?.active) continue;
    await ctx.db.rotations.update({ position: (index + 1) % list.length }, { where: { name: 'leads' } });
    return member.id;
  }
  return null;
}

export function createLead(ctx: Ctx, input: LeadInput & { name: string }): Promise<Lead> {
  return insertLead(ctx, input, { id: ctx.member.id, mrn: ctx.member.mrn });
}

/** Adds a lead for whoever made it (a member, or a web-to-lead form: `id` null, its MRN); owner by round robin unless named. */
export async function insertLead(ctx: AnyCtx, input: LeadInput & { name: string }, by: { id: string | null; mrn: string }): Promise<Lead> {
  const owner = input.owner_id !== undefined ? input.owner_id : await nextOwner(ctx);
  const lead = await ctx.db.leads.create({
    name: input.name.trim(), email: input.email?.trim().toLowerCase() || null, phone: input.phone?.trim() || null, company_name: input.company_name?.trim() || null,
    source: input.source?.trim() ?? '', notes: input.notes ?? '', status: 'new', disqualify_reason: null, owner_id: owner, deal_id: null, contact_mrn: null, company_mrn: null, created_by: by.id,
  });
  ctx.search.upsert(leadDocument(lead));
  ctx.events.stage('core.crm.lead.created', { lead_id: lead.id, lead_mrn: leadMrn(lead.id), name: lead.name, email: lead.email, company_name: lead.company_name, source: lead.source, owner_id: lead.owner_id, created_by: by.mrn });
  return lead;
}

/** Changes the given fields, or moves the lead: contacted, or disqualified with a reason. */
export async function updateLead(ctx: Ctx, leadId: string, input: LeadInput): Promise<Lead> {
  const lead = await requireLead(ctx, leadId, 'update');
  if (input.status === undefined && input.disqualify_reason !== undefined) throw new InvalidError('disqualify_reason: give it with "status": "disqualified"', { field: 'disqualify_reason' });
  if (input.status === 'qualified') throw new InvalidError('status: a lead is qualified with POST /crm/leads/{lead_id}/qualify (it makes the deal)', { field: 'status' });
  const changes: Partial<Lead> = {};
  if (input.name !== undefined && input.name.trim() !== lead.name) changes.name = input.name.trim();
  if (input.email !== undefined && (input.email?.trim().toLowerCase() || null) !== lead.email) changes.email = input.email?.trim().toLowerCase() || null;
  for (const key of ['phone', 'company_name'] as const) if (input[key] !== undefined && (input[key]?.trim() || null) !== lead[key]) changes[key] = input[key]?.trim() || null;
  for (const key of ['source', 'notes'] as const) if (input[key] !== undefined && input[key] !== lead[key]) changes[key] = input[key]!;
  if (input.owner_id !== undefined && input.owner_id !== lead.owner_id) changes.owner_id = input.owner_id;
  let event: string | undefined;
  if (input.status !== undefined) {
    const move = leadMachine.moveTo(lead.status, input.status);
    if (move.to === 'disqualified' && !input.disqualify_reason?.trim()) throw new InvalidError('disqualify_reason: a disqualified lead needs a reason', { field: 'disqualify_reason' });
    changes.status = move.to;
    if (move.to === 'disqualified') changes.disqualify_reason = input.disqualify_reason!.trim();
    event = move.event;
  }
  if (!Object.keys(changes).length) return lead;
  await ctx.db.leads.update(changes, { where: { id: lead.id } });
  const row = (await ctx.db.leads.findById(lead.id))!;
  ctx.search.upsert(leadDocument(row));
  if (event === 'core.crm.lead.disqualified') ctx.events.stage('core.crm.lead.disqualified', { lead_id: row.id, lead_mrn: leadMrn(row.id), name: row.name, reason: row.disqualify_reason!, disqualified_by: ctx.member.mrn });
  return row;
}

export async function deleteLead(ctx: Ctx, leadId: string) {
  const lead = await requireLead(ctx, leadId, 'update');
  await ctx.db.leads.destroy({ where: { id: lead.id } });
  ctx.search.remove('lead', lead.id);
  return { id: lead.id, deleted: true as const };
}

/** The contact copy with the lead's e-mail (the oldest when several), or null. */
async function contactOf(ctx: AnyCtx, lead: Lead): Promise<ContactCopy | null> {
  if (!lead.email) return null;
  return ctx.db.contacts.findOne({ where: { primary_email: { [Op.iLike]: likePattern(lead.email, 'exact') } }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
}

/** The company copy named as the lead's company (case-insensitive), else the one whose domain is the e-mail's, or null. */
async function companyOf(ctx: AnyCtx, lead: Lead, contact: ContactCopy | null): Promise<CompanyCopy | null> {
  const viaContact = contact?.company_mrn ? /^mrn:companies:company:([0-9a-f-]{36})$/i.exec(contact.company_mrn) : null;
  if (viaContact) {
    const company = await ctx.db.companies.findById(viaContact[1].toLowerCase());
    if (company) return company;
  }
  if (lead.company_name) {
    const named = await ctx.db.companies.findOne({ where: { name: { [Op.iLike]: likePattern(lead.company_name, 'exact') } }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
    if (named) return named;
  }
  const domain = lead.email?.split('@')[1];
  return domain ? ctx.db.companies.findOne({ where: { domain }, order: [['created_at', 'ASC'], ['id', 'ASC']] }) : null;
}

/**
 * Qualifies a lead: it is matched against the kept contacts (by e-mail) and companies (by the
 * contact's company, the company name, then the e-mail's domain) so the deal names the existing
 * records instead of new ones, and a deal is made in the pipeline named (or the default one).
 */
export async function qualifyLead(ctx: Ctx, leadId: string, input: { pipeline_id?: string; stage_id?: string; title?: string; amount?: string; currency?: string; close_date?: string }) {
  const lead = await requireLead(ctx, leadId, 'update');
  const move = leadMachine.moveTo(lead.status, 'qualified');
  const contact = await contactOf(ctx, lead);
  const company = await companyOf(ctx, lead, contact);
  const contactMrn = contact ? formatMrn('contacts', 'contact', contact.id) : null;
  const companyMrn = company ? formatMrn('companies', 'company', company.id) : null;
  const deal = await createDeal(ctx, {
    title: input.title ?? (lead.company_name ? `${lead.company_name}: ${lead.name}` : lead.name).slice(0, 200),
    pipeline_id: input.pipeline_id, stage_id: input.stage_id, amount: input.amount, currency: input.currency, close_date: input.close_date ?? null,
    contact_mrn: contactMrn, company_mrn: companyMrn, owner_id: lead.owner_id ?? ctx.member.id,
  }, { id: ctx.member.id, mrn: ctx.member.mrn }, lead.id);
  await ctx.db.leads.update({ status: move.to, deal_id: deal.id, contact_mrn: contactMrn, company_mrn: companyMrn }, { where: { id: lead.id } });
  const row = (await ctx.db.leads.findById(lead.id))!;
  ctx.search.upsert(leadDocument(row));
  ctx.events.stage('core.crm.lead.qualified', { lead_id: row.id, lead_mrn: leadMrn(row.id), name: row.name, deal_id: deal.id, deal_mrn: dealMrn(deal.id), contact_mrn: contactMrn, company_mrn: companyMrn, qualified_by: ctx.member.mrn });
  return row;
}
