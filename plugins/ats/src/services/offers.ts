import { ConflictError, ForbiddenError, InvalidError, Op } from '@wpk/sdk';
import { resource, type AtsContext, type AtsEvent } from '../kit.js';
import type { Offer, OfferStatus } from '../models/index.js';
import { requireApplication } from './applications.js';
import { requireCandidate } from './candidates.js';
import { offerMachine } from './machines.js';
import { DEFAULT_MESSAGES, sendMessage, wantsNotice, type Notify } from './messages.js';

/** The workspace's offers (their reads hang off the application); `offer.created` on create. */
const offers = resource({
  model: 'offers',
  label: 'Offer',
  order: [['created_at', 'ASC'], ['id', 'ASC']],
  events: { created: (offer, ctx) => ['core.ats.offer.created', { offer_id: offer.id, application_id: offer.application_id, created_by: ctx.member!.mrn }] },
});

/**
 * An amount as an exact decimal string with two places. JSON numbers are taken as written
 * (`120000.5` → `"120000.50"`); a decimal string (`"120000.50"`) is taken as it is, which is the
 * way to send amounts beyond a double's exact range.
 */
export function decimal(value: number | string | undefined, field: string): string | null {
  if (value === undefined) return null;
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) throw new InvalidError(`${field} must be a non-negative amount with at most 12 digits before the point and 2 after`);
  return `${match[1].replace(/^0+(?=\d)/, '')}.${(match[2] ?? '').padEnd(2, '0')}`;
}

export interface OfferInput {
  package: { base?: number | string; currency?: string; period?: string; bonus?: number | string; equity?: string; benefits?: string[]; notes?: string };
  start_date?: string;
}

/** Drafts an offer on an active application; one live (not rescinded) offer per application. */
export async function createOffer(ctx: AtsContext, applicationId: string, input: OfferInput): Promise<Offer> {
  const pack = input.package;
  const base = decimal(pack.base, 'package.base');
  const bonus = decimal(pack.bonus, 'package.bonus');
  if ((base !== null || bonus !== null) && !pack.currency) throw new InvalidError('package.currency is required with an amount');
  const application = await requireApplication(ctx, applicationId, true);
  if (application.status !== 'active') throw new ConflictError(`Application ${applicationId} is ${application.status}; offers are made to active applications`);
  const live = await ctx.db.offers.findOne({ where: { application_id: applicationId, status: { [Op.ne]: 'rescinded' } } });
  if (live) throw new ConflictError(`Application ${applicationId} already has offer ${live.id} (${live.status}); rescind it first`);
  const offer = await offers.create(ctx, {
    application_id: applicationId, status: offerMachine.initial, base, currency: pack.currency?.toUpperCase() ?? null, period: pack.period ?? null, bonus,
    equity: pack.equity ?? null, benefits: pack.benefits ?? [], notes: pack.notes ?? null, start_date: input.start_date ?? null, created_by: ctx.member.id,
  });
  return offers.require(ctx, offer.id);
}

/**
 * Moves an offer by `offerMachine`; an impossible move is 409 naming both states. Approving needs
 * `ats.offers.approve`; sending needs the application still active.
 */
export async function changeOfferStatus(ctx: AtsContext, id: string, to: OfferStatus, reason?: string, notify?: Notify): Promise<Offer> {
  const notice = wantsNotice(notify);
  if (notice && to !== 'sent' && to !== 'rescinded') throw new InvalidError('notify_candidate: the candidate is mailed when an offer is sent or rescinded');
  const offer = await offers.require(ctx, id, { lock: 'update' });
  const { event } = offerMachine.moveTo(offer.status, to);
  if (to === 'approved' && !ctx.permissions.has('ats.offers.approve')) throw new ForbiddenError('Missing permission: ats.offers.approve');
  if (to === 'sent') {
    const application = await requireApplication(ctx, offer.application_id);
    if (application.status !== 'active') throw new ConflictError(`Application ${application.id} is ${application.status}; the offer cannot be sent`);
  }
  await ctx.db.offers.update({ status: to, status_reason: reason ?? null }, { where: { id } });
  ctx.events.stage(event as AtsEvent, { offer_id: id, application_id: offer.application_id, from_status: offer.status, to_status: to, changed_by: ctx.member.mrn });
  const updated = await offers.require(ctx, id);
  if (notice) {
    const application = await requireApplication(ctx, offer.application_id);
    const candidate = await requireCandidate(ctx, application.candidate_id);
    const trigger = to === 'sent' ? 'offer_sent' : 'offer_rescinded';
    await sendMessage(ctx, { candidate, application, trigger, template_id: notify!.template_id, fallback: DEFAULT_MESSAGES[trigger], values: { offer_summary: offerSummary(updated) } });
  }
  return updated;
}

/** The package in one paragraph, as the offer mail's `{{offer_summary}}`: `Base salary: EUR 110000.10 per year. Bonus: ...`. */
export function offerSummary(offer: Offer): string {
  const money = (amount: string) => `${offer.currency ?? ''} ${amount}`.trim();
  const parts = [
    offer.base !== null ? `Base salary: ${money(offer.base)}${offer.period ? ` per ${offer.period}` : ''}.` : null,
    offer.bonus !== null ? `Bonus: ${money(offer.bonus)}.` : null,
    offer.equity ? `Equity: ${offer.equity}.` : null,
    offer.benefits.length ? `Benefits: ${offer.benefits.join(', ')}.` : null,
    offer.start_date ? `Start date: ${offer.start_date}.` : null,
  ];
  return parts.filter(Boolean).join(' ') || 'The details follow separately.';
}
