/**
 * Verification: a page's owner vouches for it for a review interval. `verified → due` when the
 * interval passes (a delayed event) or a record the page watches changes; `due → expired` after
 * the grace period; verifying again starts a new interval. Falling due tells the owner
 * (`core.wiki.page.review_requested` names them; the platform notifies them).
 */
import { defineStateMachine, ForbiddenError, InvalidError } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import { VERIFICATION_STATES, type Page } from '../models/index.js';
import { atLeast, requirePage } from './access.js';
import { presentPage } from './pages.js';

/** The declared machine of a page's verification. */
export const verificationMachine = defineStateMachine({
  name: 'verification',
  states: VERIFICATION_STATES,
  initial: 'unverified',
  moves: {
    verify: { from: ['unverified', 'verified', 'due', 'expired'], to: 'verified', event: 'core.wiki.page.verified' },
    fall_due: { from: ['verified'], to: 'due', event: 'core.wiki.page.review_requested' },
    expire: { from: ['due'], to: 'expired', event: 'core.wiki.page.expired' },
  },
});

const DAY = 86_400_000;
const memberMrn = (id: string | null) => (id ? `mrn:account:member:${id}` : null);

/** Schedules the next step of a page's review (dedupe by page, step and instant: a re-verify schedules anew). */
function schedule(ctx: AnyCtx, page: Page, step: 'due' | 'expire', at: Date) {
  ctx.events.stage('core.wiki.review.scheduled', { page_id: page.id, step, at: at.toISOString() }, {}, { deliverAt: at, dedupeKey: `review:${page.id}:${step}:${at.toISOString()}` });
}

/**
 * Verifies a page: its owner (the caller becomes it when it has none) or a space admin; the review
 * interval is the page's review_days, else the workspace's setting. Emits page.verified.
 */
export async function verifyPage(ctx: Ctx, pageId: string, input: { review_days?: number }) {
  const { page, role } = await requirePage(ctx, pageId, 'edit', 'update');
  if (page.owner_id && page.owner_id !== ctx.member.id && !atLeast(role, 'admin')) throw new ForbiddenError(`Page ${page.title} is owned by member ${page.owner_id}: only its owner or a space admin may verify it`);
  const move = verificationMachine.move(page.verification, 'verify');
  const days = input.review_days ?? page.review_days ?? ctx.settings.review_days;
  if (!Number.isInteger(days) || days < 1) throw new InvalidError('review_days must be a whole number of days, at least 1', { field: 'review_days' });
  const now = ctx.now();
  const dueAt = new Date(now.getTime() + days * DAY);
  const changes = { verification: move.to, owner_id: page.owner_id ?? ctx.member.id, review_days: days, verified_at: now, due_at: dueAt };
  await ctx.db.pages.update(changes, { where: { id: page.id } });
  const updated: Page = { ...page, ...changes };
  schedule(ctx, updated, 'due', dueAt);
  ctx.events.stage('core.wiki.page.verified', { page_id: page.id, space_id: page.space_id, owner_mrn: memberMrn(updated.owner_id)!, verified_at: now.toISOString(), due_at: dueAt.toISOString(), by: ctx.member.mrn });
  return presentPage(updated);
}

/** Moves a verified page to due (the interval passed, or a watched record changed) and tells its owner. */
export async function fallDue(ctx: AnyCtx, page: Page, reason: { kind: 'interval' } | { kind: 'watched'; mrn: string; action: string }) {
  if (!verificationMachine.can(page.verification, 'fall_due')) return false;
  const now = ctx.now();
  await ctx.db.pages.update({ verification: 'due', due_at: now }, { where: { id: page.id } });
  schedule(ctx, page, 'expire', new Date(now.getTime() + ctx.settings.grace_days * DAY));
  ctx.events.stage('core.wiki.page.review_requested', {
    page_id: page.id,
    space_id: page.space_id,
    title: page.title,
    owner_mrn: memberMrn(page.owner_id),
    reason: reason.kind,
    ...(reason.kind === 'watched' ? { watched_mrn: reason.mrn, watched_action: reason.action } : {}),
  });
  return true;
}

/** A scheduled review step: applies only while the page is still in the state that scheduled it. */
export async function reviewStep(ctx: AnyCtx, payload: { page_id: string; step: 'due' | 'expire'; at: string }) {
  const page = await ctx.db.pages.findById(payload.page_id, { lock: 'update' });
  if (!page) return;
  if (payload.step === 'due') {
    if (page.verification === 'verified' && page.due_at?.toISOString() === payload.at) await fallDue(ctx, page, { kind: 'interval' });
    return;
  }
  const expiresAt = page.due_at ? new Date(page.due_at.getTime() + ctx.settings.grace_days * DAY).toISOString() : null;
  if (page.verification !== 'due' || expiresAt !== payload.at) return;
  await ctx.db.pages.update({ verification: 'expired' }, { where: { id: page.id } });
  ctx.events.stage('core.wiki.page.expired', { page_id: page.id, space_id: page.space_id, title: page.title, owner_mrn: memberMrn(page.owner_id) });
}

/** A watched record changed: every verified page watching its MRN falls due. */
export async function watchedChanged(ctx: AnyCtx, mrns: string[], action: string) {
  const pages = await ctx.db.pages.findAll({ where: { verification: 'verified' }, order: [['id', 'ASC']] });
  for (const page of pages) {
    const mrn = mrns.find((one) => page.watches.includes(one));
    if (mrn) await fallDue(ctx, page, { kind: 'watched', mrn, action });
  }
}
