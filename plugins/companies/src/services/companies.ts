import { ConflictError, InvalidError, isUuid, likePattern, memberIdFromMrn, Op } from '@wpk/sdk';
import { resource, type CompaniesContext } from '../kit.js';
import type { Company, CompanyAddress, CompanySize } from '../models/index.js';
import { companyDocument, displayFields } from './present.js';

/** What a create or an update may set; `null` clears an optional field. */
export interface CompanyInput {
  name?: string;
  domain?: string | null;
  industry?: string | null;
  size?: CompanySize | null;
  description?: string;
  address?: CompanyAddress | null;
  owner_mrn?: string;
}

/** The fields an update compares, as `changed_fields` names them (the owner by MRN). */
const FIELD_NAMES: Record<string, string> = { owner_id: 'owner_mrn' };

/** Companies of the workspace: reads, the search index and the events of every write. */
export const companies = resource({
  model: 'companies',
  label: 'Company',
  order: [['name', 'ASC'], ['id', 'ASC']],
  searchColumns: ['name', 'domain'],
  search: { type: 'company', document: companyDocument },
  events: {
    created: (company, ctx) => ['core.companies.company.created', { ...displayFields(company), created_by: ctx.member!.id }],
    updated: (company, changed, ctx) => ['core.companies.company.updated', { ...displayFields(company), changed_fields: changed.map((field) => FIELD_NAMES[field] ?? field), updated_by: ctx.member!.id }],
    deleted: (company, ctx) => {
      const { company_mrn } = displayFields(company);
      return ['core.companies.company.deleted', { company_id: company.id, company_mrn, name: company.name, revision: company.revision + 1, deleted_by: ctx.member!.id }];
    },
  },
});

/** The company of the workspace; 404 otherwise (another workspace's id answers the same). */
export function requireCompany(ctx: CompaniesContext, companyId: string, lock?: 'update') {
  return companies.require(ctx, companyId, lock ? { lock } : {});
}

/**
 * A domain as people type it (`https://www.Acme.com/about`) in the form stored and compared
 * (`acme.com`): lower case, without scheme, `www.`, port, path or trailing dot. 400 when what is
 * left is no host name.
 */
export function normaliseDomain(text: string): string {
  const host = text
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/\.$/, '')
    .replace(/^www\./, '');
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
  const labels = host.split('.');
  if (host.length > 253 || labels.length < 2 || !labels.every((part) => label.test(part)) || /^\d+$/.test(labels[labels.length - 1])) {
    throw new InvalidError(`domain must be a domain name such as example.com (got ${JSON.stringify(text)})`);
  }
  return host;
}

/** The member id of an owner MRN (the route checked it names a member of the workspace). */
function ownerId(mrn: string): string {
  return memberIdFromMrn(mrn)!.toLowerCase();
}

/** An address with its empty parts dropped (trimmed text; an empty object when nothing is left). */
function cleanAddress(address: CompanyAddress | null | undefined): CompanyAddress {
  const clean: CompanyAddress = {};
  for (const key of ['street', 'city', 'region', 'postal_code', 'country'] as const) {
    const value = address?.[key]?.trim();
    if (value) clean[key] = value;
  }
  return clean;
}

/**
 * Refuses a domain another company of the workspace already has, when the settings ask for
 * unique domains. Takes a lock on the domain first, so two requests naming one domain at once
 * take turns and the second sees the first's company.
 */
async function assertDomainFree(ctx: CompaniesContext, domain: string | null, exceptId: string | null): Promise<void> {
  if (!domain || !ctx.settings.unique_domains) return;
  await ctx.lock(`domain:${domain}`);
  const clash = await ctx.db.companies.findOne({ where: { domain, ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}) } });
  if (clash) throw new ConflictError(`Company ${clash.id} (${clash.name}) already has the domain ${domain}`);
}

export interface ListFilters {
  q?: string;
  industry?: string;
  size?: CompanySize;
  domain?: string;
  owner_mrn?: string;
}

/** One page of the workspace's companies by name, then id. A filter naming no member's MRN matches nothing. */
export async function listCompanies(ctx: CompaniesContext, filters: ListFilters) {
  const where: Record<string | symbol, unknown> = {};
  if (filters.industry) where.industry = { [Op.iLike]: likePattern(filters.industry, 'exact') };
  if (filters.size) where.size = filters.size;
  if (filters.domain) where.domain = normaliseDomain(filters.domain);
  if (filters.owner_mrn) {
    const owner = memberIdFromMrn(filters.owner_mrn);
    if (!owner || !isUuid(owner)) throw new InvalidError(`query parameter owner_mrn must be a member MRN (mrn:account:member:<id>), got ${filters.owner_mrn}`);
    where.owner_id = owner.toLowerCase();
  }
  return companies.list(ctx, { q: filters.q, where });
}

/** Creates a company (owner: the given member, else the caller). Emits `company.created`. */
export async function createCompany(ctx: CompaniesContext, input: CompanyInput & { name: string }): Promise<Company> {
  const domain = input.domain ? normaliseDomain(input.domain) : null;
  const owner = input.owner_mrn ? ownerId(input.owner_mrn) : ctx.member.id;
  await assertDomainFree(ctx, domain, null);
  return companies.create(ctx, {
    name: input.name,
    domain,
    industry: input.industry?.trim() || null,
    size: input.size ?? null,
    description: input.description ?? '',
    address: cleanAddress(input.address),
    owner_id: owner,
    creator_id: ctx.member.id,
    revision: 1,
  });
}

/**
 * Changes the given fields of a company (`null` clears an optional one). When something changed,
 * the revision grows by one and `company.updated` carries the display fields as they are now and
 * `changed_fields`; a request changing nothing answers the company as it is and emits nothing.
 */
export async function updateCompany(ctx: CompaniesContext, companyId: string, input: CompanyInput): Promise<Company> {
  const company = await requireCompany(ctx, companyId, 'update');
  const next = {
    name: input.name ?? company.name,
    domain: input.domain === undefined ? company.domain : input.domain === null || input.domain.trim() === '' ? null : normaliseDomain(input.domain),
    industry: input.industry === undefined ? company.industry : input.industry?.trim() || null,
    size: input.size === undefined ? company.size : input.size,
    description: input.description ?? company.description,
    address: input.address === undefined ? company.address : cleanAddress(input.address),
    owner_id: input.owner_mrn === undefined ? company.owner_id : ownerId(input.owner_mrn),
  };
  if (next.domain !== company.domain) await assertDomainFree(ctx, next.domain, company.id);
  const { row } = await companies.patch(ctx, company, next, { touch: (before) => ({ revision: before.revision + 1 }) });
  return row;
}

/** Deletes a company. Emits `company.deleted` (other apps drop their copy). */
export async function deleteCompany(ctx: CompaniesContext, companyId: string) {
  const company = await companies.remove(ctx, companyId);
  return { id: company.id, mrn: displayFields(company).company_mrn, deleted: true };
}
