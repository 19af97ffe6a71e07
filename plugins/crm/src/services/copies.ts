import type { AnyCtx } from '../kit.js';

/** The id of an MRN `mrn:{app}:{type}:{id}` of the given app and type, lower-case, or null. */
export function idOfMrn(mrn: string | null | undefined, app: string, type: string): string | null {
  const match = mrn ? new RegExp(`^mrn:${app}:${type}:([0-9a-f-]{36})$`, 'i').exec(mrn) : null;
  return match ? match[1].toLowerCase() : null;
}

/** What a core.contacts.contact.created / updated event carries that the copy keeps. */
export interface ContactPayload {
  contact_id: string;
  display_name: string;
  primary_email?: string;
  company_mrn?: string;
}

/** A contact created or changed: the copy takes its name, e-mail (lower-cased) and company (the event's state is the contact's now). */
export async function keepContact(ctx: AnyCtx, payload: ContactPayload): Promise<void> {
  await ctx.db.contacts.upsert(
    { id: payload.contact_id, display_name: payload.display_name.slice(0, 300), primary_email: payload.primary_email?.trim().toLowerCase().slice(0, 320) ?? null, company_mrn: payload.company_mrn ?? null },
    { conflictFields: ['id'] },
  );
}

/** A contact deleted, or merged into another: the copies go. */
export async function dropContacts(ctx: AnyCtx, ids: string[]): Promise<void> {
  if (ids.length) await ctx.db.contacts.destroy({ where: { id: ids } });
}

/** What a core.companies.company.* event carries that the copy keeps. */
export interface CompanyPayload {
  company_id: string;
  name: string;
  domain?: string;
  revision: number;
}

/** A company created or changed, unless the copy holds that revision or a later one. */
export async function keepCompany(ctx: AnyCtx, payload: CompanyPayload): Promise<void> {
  await ctx.lock(`company:${payload.company_id}`);
  const before = await ctx.db.companies.findById(payload.company_id);
  if (before && before.revision >= payload.revision) return;
  const values = { name: payload.name.slice(0, 300), domain: payload.domain?.toLowerCase().slice(0, 300) ?? null, revision: payload.revision };
  if (before) await ctx.db.companies.update(values, { where: { id: payload.company_id } });
  else await ctx.db.companies.create({ id: payload.company_id, ...values });
}

export async function dropCompany(ctx: AnyCtx, companyId: string): Promise<void> {
  await ctx.db.companies.destroy({ where: { id: companyId } });
}
