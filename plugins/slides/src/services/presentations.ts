import { ConflictError, ForbiddenError, formatMrn, InvalidError, isUuid, memberIdFromMrn, memberMrn, NotFoundError } from '@wpk/sdk';
import type { SlidesBaseContext, SlidesContext } from '../kit.js';
import type { Deck, Presentation } from '../models/index.js';
import { presentPresentation } from './present.js';

/**
 * Live presentations. One member drives (moves the slides); everyone else follows on the app's
 * live channel `slides/presentations/{id}`, which core fans out to every server process. The
 * driver hands the presentation on explicitly (`driver`); the presenter who started it may take
 * it back at any time (a driver who walked away never strands it). One live presentation per deck.
 */

export const channelOf = (presentationId: string) => `presentations/${presentationId}`;

/** The presentation, or 404 (`lock`: a row lock until the transaction ends). */
export async function requirePresentation(ctx: SlidesBaseContext, presentationId: string, lock = false): Promise<Presentation> {
  const presentation = isUuid(presentationId) ? await ctx.db.presentations.findById(presentationId, lock ? { lock: 'update' } : {}) : null;
  if (!presentation) throw new NotFoundError(`Presentation ${presentationId} not found`);
  return presentation;
}

const checkSlide = (deck: Deck, slide: number) => {
  if (slide >= deck.slide_count) throw new InvalidError(`slide must be less than ${deck.slide_count}: the deck has ${deck.slide_count} slide${deck.slide_count === 1 ? '' : 's'}, counted from 0`, { field: 'slide' });
};

/**
 * Starts presenting the deck: the caller presents and drives. When a call started from the deck
 * is live, the presentation belongs to it (its participants follow it until the call ends).
 */
export async function startPresentation(ctx: SlidesContext, deck: Deck, input: { slide?: number }): Promise<Presentation> {
  await ctx.lock(`present:${deck.id}`);
  const live = await ctx.db.presentations.findOne({ where: { deck_id: deck.id, status: 'live' } });
  if (live) throw new ConflictError(`Deck ${deck.id} is already being presented (presentation ${live.id}): follow it, or end it first`);
  if (deck.slide_count === 0) throw new ConflictError(`Deck ${deck.id} has no slides to present`);
  const slide = input.slide ?? 0;
  checkSlide(deck, slide);
  const call = await ctx.db.deckCalls.findOne({ where: { deck_id: deck.id, status: 'live' }, order: [['created_at', 'DESC'], ['id', 'ASC']] });
  const presentation = await ctx.db.presentations.create({ deck_id: deck.id, presenter_id: ctx.member.id, driver_id: ctx.member.id, slide, status: 'live', call_id: call?.id ?? null, started_at: new Date() });
  ctx.events.stage('core.slides.presentation.started', {
    presentation_id: presentation.id,
    deck_id: deck.id,
    deck_mrn: formatMrn('slides', 'deck', deck.id),
    presenter_mrn: memberMrn(ctx.member.id),
    slide,
    ...(presentation.call_id ? { call_id: presentation.call_id } : {}),
  });
  ctx.live.publish(`decks/${deck.id}`, 'presentation.started', presentPresentation(presentation));
  return presentation;
}

/**
 * Moves the slide and/or hands the presentation on. Only the driver moves the slides and hands
 * on; the presenter may also take the driver role back (`driver`: their own MRN). Each change
 * reaches the followers as `slide.changed` / `driver.changed`; a PATCH that changes nothing
 * publishes nothing.
 */
export async function updatePresentation(ctx: SlidesContext, presentationId: string, input: { slide?: number; driver?: string }): Promise<Presentation> {
  let presentation = await requirePresentation(ctx, presentationId, true);
  if (presentation.status !== 'live') throw new ConflictError(`Presentation ${presentation.id} has ended`);
  const me = ctx.member.id;
  const driving = presentation.driver_id === me;
  const driverId = input.driver === undefined ? null : memberIdFromMrn(input.driver);
  const reclaiming = driverId === me && presentation.presenter_id === me;
  if (!driving && !(reclaiming && input.slide === undefined)) {
    throw new ForbiddenError(`Only the driver (${memberMrn(presentation.driver_id)}) moves the slides or hands the presentation on${presentation.presenter_id === me ? '; as its presenter you may take it back with {"driver": "' + memberMrn(me) + '"}' : ''}`);
  }
  const changes: Partial<Presentation> = {};
  if (input.slide !== undefined && input.slide !== presentation.slide) {
    const deck = await ctx.db.decks.findById(presentation.deck_id);
    checkSlide(deck!, input.slide);
    changes.slide = input.slide;
  }
  if (driverId && driverId !== presentation.driver_id) changes.driver_id = driverId;
  if (Object.keys(changes).length === 0) return presentation;
  presentation = await write(ctx, presentation.id, changes);
  const channel = channelOf(presentation.id);
  if (changes.slide !== undefined) ctx.live.publish(channel, 'slide.changed', { presentation_id: presentation.id, slide: presentation.slide, driver_id: presentation.driver_id });
  if (changes.driver_id) ctx.live.publish(channel, 'driver.changed', { presentation_id: presentation.id, driver_id: presentation.driver_id, driver_mrn: memberMrn(presentation.driver_id), by: memberMrn(me) });
  return presentation;
}

/** Ends a live presentation (by its driver or presenter, its deck deleted, or its call ended): `presentation.ended` to its followers and its deck. */
export async function endPresentation(ctx: SlidesBaseContext, live: Presentation, reason: 'ended' | 'deck_deleted' | 'call_ended', endedBy: string | null): Promise<Presentation> {
  const now = new Date();
  const presentation = await write(ctx, live.id, { status: 'ended', ended_at: now, end_reason: reason });
  ctx.events.stage('core.slides.presentation.ended', {
    presentation_id: presentation.id,
    deck_id: presentation.deck_id,
    deck_mrn: formatMrn('slides', 'deck', presentation.deck_id),
    reason,
    ...(endedBy ? { ended_by: memberMrn(endedBy) } : {}),
    duration_seconds: Math.max(0, Math.round((now.getTime() - new Date(presentation.started_at).getTime()) / 1000)),
  });
  const answer = presentPresentation(presentation);
  ctx.live.publish(channelOf(presentation.id), 'presentation.ended', answer);
  ctx.live.publish(`decks/${presentation.deck_id}`, 'presentation.ended', answer);
  return presentation;
}

/** DELETE: the driver or the presenter ends the presentation. */
export async function stopPresentation(ctx: SlidesContext, presentationId: string): Promise<Presentation> {
  const presentation = await requirePresentation(ctx, presentationId, true);
  if (presentation.status !== 'live') throw new ConflictError(`Presentation ${presentation.id} has already ended`);
  if (presentation.driver_id !== ctx.member.id && presentation.presenter_id !== ctx.member.id) throw new ForbiddenError('Only the driver or the presenter ends the presentation');
  return endPresentation(ctx, presentation, 'ended', ctx.member.id);
}

async function write(ctx: SlidesBaseContext, id: string, changes: Partial<Presentation>): Promise<Presentation> {
  await ctx.db.presentations.update(changes, { where: { id } });
  return (await ctx.db.presentations.findById(id))!;
}

/** The deck's live presentation, or null. */
export function livePresentation(ctx: SlidesBaseContext, deckId: string) {
  return ctx.db.presentations.findOne({ where: { deck_id: deckId, status: 'live' } });
}
