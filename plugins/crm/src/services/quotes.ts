import { createHash } from 'node:crypto';
import { ConflictError, formatMrn, NotFoundError } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Quote, QuoteLine, QuoteStatus } from '../models/index.js';
import { presentLine, requireDeal, setDealStatus } from './deals.js';
import { quoteMachine } from './machines.js';
import { cents, money, total } from './money.js';

export const quoteMrn = (id: string): string => formatMrn('crm', 'quote', id);
export const quoteNumber = (quote: Quote): string => `Q-${String(quote.number).padStart(4, '0')}`;

/** The biggest PDF the signature contract carries (2 MB decoded). */
const MAX_DOCUMENT = 2 * 1024 * 1024;

export function presentQuote(quote: Quote) {
  return {
    id: quote.id,
    mrn: quoteMrn(quote.id),
    number: quoteNumber(quote),
    deal_id: quote.deal_id,
    status: quote.status,
    valid_until: quote.valid_until,
    notes: quote.notes,
    currency: quote.currency,
    lines: quote.lines,
    total: money(quote.total),
    sent_at: quote.sent_at,
    decided_at: quote.decided_at,
    signature_requested_at: quote.signature_requested_at,
    envelope_id: quote.envelope_id,
    pdf_url: `/crm/quotes/${quote.id}/pdf`,
    created_at: quote.created_at,
    updated_at: quote.updated_at,
  };
}

export async function requireQuote(ctx: AnyCtx, quoteId: string, lock?: 'update'): Promise<Quote> {
  const quote = await ctx.db.quotes.findById(quoteId, lock ? { lock } : {});
  if (!quote) throw new NotFoundError(`Quote ${quoteId} not found`);
  return quote;
}

/** A deal's quotes, newest first. */
export async function listQuotes(ctx: Ctx, dealId: string) {
  const deal = await requireDeal(ctx, dealId);
  return ctx.db.quotes.findAndCountAll({ where: { deal_id: deal.id }, order: [['number', 'DESC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

/** A quote of an open deal, its lines frozen from the deal's, numbered next in the workspace. */
export async function createQuote(ctx: Ctx, dealId: string, input: { valid_until?: string; notes?: string }): Promise<Quote> {
  const deal = await requireDeal(ctx, dealId, 'update');
  if (deal.status !== 'open') throw new ConflictError(`Deal ${deal.id} is ${deal.status}: only an open deal gets a quote`);
  const lines = (await ctx.db.dealLines.findAll({ where: { deal_id: deal.id }, order: [['position', 'ASC']] })).map(presentLine);
  if (!lines.length) throw new ConflictError(`Deal ${deal.id} has no lines: add its products before quoting`);
  await ctx.lock('quote-number');
  const last = await ctx.db.quotes.findOne({ order: [['number', 'DESC']] });
  const frozen: QuoteLine[] = lines.map((line) => ({ product_id: line.product_id, product_mrn: line.product_mrn, description: line.description, quantity: line.quantity, unit_price: line.unit_price, amount: line.amount }));
  return ctx.db.quotes.create({
    deal_id: deal.id, number: (last?.number ?? 0) + 1, status: 'draft', valid_until: input.valid_until ?? null, notes: input.notes ?? '', currency: deal.currency,
    lines: frozen, total: cents(total(frozen.map((line) => line.amount))), sent_at: null, decided_at: null, signature_requested_at: null, envelope_id: null, created_by: ctx.member.id,
  });
}

/** Moves a quote (and stages its event); an accepted quote wins its open deal. */
export async function moveQuote(ctx: AnyCtx, quote: Quote, target: QuoteStatus, by: string | null, envelopeId?: string): Promise<Quote> {
  const move = quoteMachine.moveTo(quote.status, target);
  const now = ctx.now();
  await ctx.db.quotes.update({ status: move.to, ...(move.to === 'sent' ? { sent_at: now } : { decided_at: now }), ...(envelopeId ? { envelope_id: envelopeId } : {}) }, { where: { id: quote.id } });
  const row = (await ctx.db.quotes.findById(quote.id))!;
  const base = { quote_id: row.id, quote_mrn: quoteMrn(row.id), number: quoteNumber(row), deal_id: row.deal_id, total: money(row.total), currency: row.currency };
  if (move.to === 'sent') ctx.events.stage('core.crm.quote.sent', { ...base, ...(by ? { sent_by: by } : {}) });
  if (move.to === 'accepted') {
    ctx.events.stage('core.crm.quote.accepted', { ...base, ...(by ? { accepted_by: by } : {}), ...(envelopeId ? { envelope_id: envelopeId } : {}) });
    const deal = await requireDeal(ctx, row.deal_id, 'update');
    if (deal.status === 'open') await setDealStatus(ctx, deal, 'won', undefined, by, row.id);
  }
  return row;
}

/** Changes a draft's validity or notes, or moves the quote (`status`). */
export async function updateQuote(ctx: Ctx, quoteId: string, input: { status?: QuoteStatus; valid_until?: string | null; notes?: string }): Promise<Quote> {
  let quote = await requireQuote(ctx, quoteId, 'update');
  const edits: Partial<Quote> = {};
  if (input.valid_until !== undefined && input.valid_until !== quote.valid_until) edits.valid_until = input.valid_until;
  if (input.notes !== undefined && input.notes !== quote.notes) edits.notes = input.notes;
  if (Object.keys(edits).length) {
    if (quote.status !== 'draft') throw new ConflictError(`Quote ${quoteNumber(quote)} is ${quote.status}: only a draft changes`);
    await ctx.db.quotes.update(edits, { where: { id: quote.id } });
    quote = (await ctx.db.quotes.findById(quote.id))!;
  }
  if (input.status !== undefined) quote = await moveQuote(ctx, quote, input.status, ctx.member.mrn);
  return quote;
}

/** The quote's PDF, its file name and SHA-256 (the same quote always gives the same bytes). */
export async function renderQuote(ctx: AnyCtx, quote: Quote) {
  const deal = await requireDeal(ctx, quote.deal_id);
  const contact = deal.contact_mrn ? await ctx.db.contacts.findById(deal.contact_mrn.split(':').pop()!) : null;
  const company = deal.company_mrn ? await ctx.db.companies.findById(deal.company_mrn.split(':').pop()!) : null;
  const customer = [contact?.display_name, company?.name].filter(Boolean).join(', ') || null;
  // pdf-lib loads on the first quote's PDF, not with the app.
  const { quotePdf } = await import('./pdf.js');
  const bytes = await quotePdf({
    number: quoteNumber(quote), workspace: ctx.workspace.name, deal: deal.title, customer, issued: new Date(quote.created_at).toISOString().slice(0, 10),
    valid_until: quote.valid_until, currency: quote.currency, lines: quote.lines, total: money(quote.total), notes: quote.notes, created_at: new Date(quote.created_at),
  });
  return { bytes, filename: `${quoteNumber(quote)}.pdf`, sha256: createHash('sha256').update(bytes).digest('hex'), deal, customer };
}

export interface SignerInput {
  name: string;
  email: string;
  member_id?: string;
  role?: 'signer' | 'approver' | 'copy';
  group?: number;
}

/**
 * Asks the Sign app for a signature: a draft quote is sent first (quote.sent), then
 * `core.crm.quote.signature_requested` carries the PDF, its hash and the signers, so Sign makes
 * the requester's draft envelope (docs/briefs: the crm ↔ sign contract).
 */
export async function requestSignature(ctx: Ctx, quoteId: string, input: { signers: SignerInput[]; message?: string }) {
  let quote = await requireQuote(ctx, quoteId, 'update');
  if (quote.status !== 'draft' && quote.status !== 'sent') throw new ConflictError(`Quote ${quoteNumber(quote)} is ${quote.status}: only a draft or sent quote is sent for signature`);
  const { bytes, filename, sha256, deal, customer } = await renderQuote(ctx, quote);
  if (bytes.length > MAX_DOCUMENT) throw new ConflictError(`Quote ${quoteNumber(quote)}'s PDF is ${bytes.length} bytes: more than the 2 MB a signature request carries`);
  if (quote.status === 'draft') quote = await moveQuote(ctx, quote, 'sent', ctx.member.mrn);
  const requestedAt = ctx.now();
  await ctx.db.quotes.update({ signature_requested_at: requestedAt }, { where: { id: quote.id } });
  const title = `Quote ${quoteNumber(quote)} for ${customer ?? deal.title}`.slice(0, 200);
  const signers = input.signers.map((signer) => ({ name: signer.name.trim(), email: signer.email, ...(signer.member_id ? { member_id: signer.member_id } : {}), role: signer.role ?? 'signer', group: signer.group ?? 1 }));
  ctx.events.stage('core.crm.quote.signature_requested', {
    quote_id: quote.id, source_mrn: quoteMrn(quote.id), requested_by: ctx.member.id, title,
    ...(input.message ? { message: input.message } : {}),
    signers,
    document: { filename, content_type: 'application/pdf', sha256, data_base64: bytes.toString('base64') },
  });
  return { quote_id: quote.id, source_mrn: quoteMrn(quote.id), status: 'sent' as const, title, signers, filename, sha256, size_bytes: bytes.length, requested_at: requestedAt };
}

/** The quote id of `mrn:crm:quote:{id}`, or null (not one of this app's quotes). */
export function quoteIdOf(mrn: unknown): string | null {
  const match = typeof mrn === 'string' ? /^mrn:crm:quote:([0-9a-f-]{36})$/i.exec(mrn) : null;
  return match ? match[1].toLowerCase() : null;
}

/**
 * A Sign envelope finished: completed accepts the quote its `source_mrn` names (and wins its deal),
 * declined declines it. Once per envelope and outcome: a repeated delivery finds the outcome's row
 * and changes nothing; a quote no longer sent is left as it is.
 */
export async function applySignOutcome(ctx: AnyCtx, payload: { envelope_id?: unknown; source_mrn?: unknown }, outcome: 'completed' | 'declined'): Promise<void> {
  const quoteId = quoteIdOf(payload.source_mrn);
  const envelopeId = typeof payload.envelope_id === 'string' ? payload.envelope_id.slice(0, 100) : null;
  if (!quoteId || !envelopeId) return;
  await ctx.lock(`sign-outcome:${envelopeId}`);
  if (await ctx.db.signOutcomes.findOne({ where: { envelope_id: envelopeId, outcome } })) return;
  const quote = await ctx.db.quotes.findById(quoteId, { lock: 'update' });
  if (!quote) {
    ctx.log.warn({ quote_id: quoteId, envelope_id: envelopeId }, 'a sign outcome names a quote this workspace does not have');
    return;
  }
  await ctx.db.signOutcomes.create({ envelope_id: envelopeId, outcome, quote_id: quote.id });
  if (quote.status !== 'sent') {
    ctx.log.info({ quote_id: quote.id, status: quote.status, outcome }, 'a sign outcome for a quote that is no longer sent: left as it is');
    return;
  }
  await moveQuote(ctx, quote, outcome === 'completed' ? 'accepted' : 'declined', null, envelopeId);
}
