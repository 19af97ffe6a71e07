import { randomBytes } from 'node:crypto';
import { formatMrn, NotFoundError } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { LeadForm } from '../models/index.js';
import { insertLead } from './leads.js';

/** `mrn:crm:lead_form:{id}`: who made a lead that came through a form. */
export const leadFormMrn = (id: string) => formatMrn('crm', 'lead_form', id);

/** How a form looks to the members who manage it: with its public page's path. */
export function presentLeadForm(form: LeadForm) {
  return { id: form.id, name: form.name, token: form.token, source: form.source, active: form.active, page_url: `/public/apps/crm/lead-form.html#${form.token}`, created_by: form.created_by, created_at: form.created_at, updated_at: form.updated_at };
}

/** A new form: a random token (144 bits, URL-safe) names it on its page and in its posts. */
export function createLeadForm(ctx: Ctx, input: { name: string; source?: string }) {
  return ctx.db.leadForms.create({ name: input.name.trim(), token: randomBytes(18).toString('base64url'), source: input.source?.trim() || 'web form', active: true, created_by: ctx.member.id });
}

/** The forms, newest first (retired ones too). */
export const listLeadForms = (ctx: Ctx) => ctx.db.leadForms.findAndCountAll({ order: [['created_at', 'DESC'], ['id', 'DESC']], offset: ctx.page?.offset ?? 0, limit: ctx.page?.limit ?? 25 });

/** Retires a form: its page and posts answer 404 from now on; the leads it brought stay. */
export async function retireLeadForm(ctx: Ctx, formId: string) {
  const form = await ctx.db.leadForms.findById(formId, { lock: 'update' });
  if (!form) throw new NotFoundError(`Lead form ${formId} not found`);
  if (form.active) await ctx.db.leadForms.update({ active: false }, { where: { id: form.id } });
  return { ...form, active: false };
}

/** The active form a public token names, or 404 (an unknown token and a retired form answer alike). */
export async function activeForm(ctx: AnyCtx, token: string): Promise<LeadForm> {
  const form = await ctx.db.leadForms.findOne({ where: { token, active: true } });
  if (!form) throw new NotFoundError('This form is not available');
  return form;
}

/** What the public form sends. `website` is a field people never see (a honeypot): a bot fills it. */
export interface Submission {
  name: string;
  email: string;
  company_name?: string;
  phone?: string;
  message?: string;
  website?: string;
}

/** More links than a person writes in a first message: spam. */
const MAX_LINKS = 2;

/**
 * A public submission: a new lead (source the form's, owner by round robin, made by the form),
 * `lead.created` once. A submission that looks like spam (the hidden field filled, or more than two
 * links) is answered the same and writes nothing, so a bot learns nothing from the answer.
 */
export async function submitLead(ctx: AnyCtx, token: string, input: Submission): Promise<{ received: true }> {
  const form = await activeForm(ctx, token);
  const links = (input.message ?? '').match(/https?:\/\/|www\./gi)?.length ?? 0;
  if (input.website?.trim() || links > MAX_LINKS) {
    ctx.log.info({ form: form.id, honeypot: Boolean(input.website?.trim()), links }, 'web-to-lead submission dropped as spam');
    return { received: true };
  }
  await insertLead(ctx, { name: input.name, email: input.email, company_name: input.company_name, phone: input.phone, notes: input.message ?? '', source: form.source }, { id: null, mrn: leadFormMrn(form.id) });
  return { received: true };
}
