import type { ContactsEventContext } from '../kit.js';
import { companyNames, fieldsOf, writeContact } from './contacts.js';
import { contactDocument, idFromMrn } from './present.js';

/** What the app keeps of a company event; null when the payload lacks what a copy needs. */
function readPayload(payload: Record<string, unknown>): { id: string; name: string; domain: string | null; revision: number } | null {
  const id = typeof payload.company_id === 'string' ? idFromMrn(`mrn:companies:company:${payload.company_id}`, 'companies', 'company') : null;
  const { name, domain, revision } = payload;
  if (!id || typeof name !== 'string' || !name || typeof revision !== 'number' || !Number.isInteger(revision) || revision < 1) return null;
  return { id, name: name.slice(0, 200), domain: typeof domain === 'string' ? domain.slice(0, 253) : null, revision };
}

/**
 * Applies a `core.companies.company.*` event to the app's copy of companies. The copy keeps the
 * highest revision seen: a delivery older than what the copy holds (late, or a redelivery)
 * changes nothing, so deliveries in any order and any number of times end in the same copy. A
 * deleted company stays as a tombstone (a late `updated` cannot bring it back), and the contacts
 * that named it lose their `company_mrn` (one `contact.updated` each, `updated_by` absent). A
 * renamed company re-indexes its contacts' search documents (their subtitle shows it).
 * Returns what happened, for the log.
 */
export async function applyCompanyEvent(ctx: ContactsEventContext, payload: Record<string, unknown>, deleted: boolean): Promise<'stale' | 'applied' | 'malformed'> {
  const company = readPayload(payload);
  if (!company) return 'malformed';
  // Deliveries for one company take turns, so the revision check and the write are one step.
  await ctx.lock(`company:${company.id}`);
  const copy = await ctx.db.companyCopies.findOne({ where: { company_id: company.id } });
  if (copy && copy.revision >= company.revision) return 'stale';
  const values = { name: company.name, domain: company.domain, revision: company.revision, deleted };
  if (copy) await ctx.db.companyCopies.update(values, { where: { company_id: company.id } });
  else await ctx.db.companyCopies.create({ company_id: company.id, ...values });
  const mrn = `mrn:companies:company:${company.id}`;
  const contacts = await ctx.db.contacts.findAll({ where: { company_mrn: mrn }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  if (deleted) {
    for (const contact of contacts) await writeContact(ctx, contact, { ...fieldsOf(contact), company_mrn: null }, null);
  } else if (copy?.name !== company.name || copy?.deleted) {
    const names = await companyNames(ctx, [mrn]);
    for (const contact of contacts) ctx.search.upsert(contactDocument(contact, names.get(mrn) ?? null));
  }
  return 'applied';
}

