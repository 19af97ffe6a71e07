import { ForbiddenError, isUuid, memberIdFromMrn, NotFoundError, parseMrn } from '@wpk/sdk';
import type { SlidesBaseContext, SlidesContext } from '../kit.js';
import type { Presentation } from '../models/index.js';
import { endPresentation } from './presentations.js';

/**
 * Present in a call. Calls tells the workspace when a call starts and ends; a call whose
 * `source_mrn` names one of our decks is kept in `deck_calls` (our own copy: we never read the
 * Calls app's tables). A presentation of the deck started while the call is live belongs to it
 * (and one already live when the call starts joins it); its participants get the follow view
 * (`GET /slides/calls/{call_id}/presentation`) until `core.calls.call.ended`, which ends it.
 */

const deckIdOf = (sourceMrn: string | undefined): string | null => {
  const mrn = sourceMrn ? parseMrn(sourceMrn) : null;
  return mrn && mrn.app === 'slides' && mrn.resource === 'deck' && isUuid(mrn.id) ? mrn.id.toLowerCase() : null;
};

/** `core.calls.call.started`: a call started from a deck is kept with its participants; the deck's live presentation joins it. Repeated deliveries change nothing. */
export async function callStarted(ctx: SlidesBaseContext, payload: { call_id: string; source_mrn?: string; participant_mrns: string[] }): Promise<void> {
  const deckId = deckIdOf(payload.source_mrn);
  if (!deckId) return;
  await ctx.lock(`call:${payload.call_id}`);
  const known = await ctx.db.deckCalls.findById(payload.call_id);
  if (known) return;
  const participantIds = [...new Set(payload.participant_mrns.map((mrn) => memberIdFromMrn(mrn)).filter((id): id is string => id !== null))];
  await ctx.db.deckCalls.create({ id: payload.call_id, deck_id: deckId, participant_ids: participantIds, status: 'live', ended_at: null });
  await ctx.db.presentations.update({ call_id: payload.call_id }, { where: { deck_id: deckId, status: 'live', call_id: null } });
}

/** `core.calls.call.ended`: the call's presentation ends (`call_ended`); the copy says the call is over. An end that arrives before its start is kept, so the late start finds it ended. */
export async function callEnded(ctx: SlidesBaseContext, payload: { call_id: string; source_mrn?: string }): Promise<void> {
  const deckId = deckIdOf(payload.source_mrn);
  if (!deckId) return;
  await ctx.lock(`call:${payload.call_id}`);
  const known = await ctx.db.deckCalls.findById(payload.call_id);
  if (known?.status === 'ended') return;
  if (known) await ctx.db.deckCalls.update({ status: 'ended', ended_at: new Date() }, { where: { id: payload.call_id } });
  else await ctx.db.deckCalls.create({ id: payload.call_id, deck_id: deckId, participant_ids: [], status: 'ended', ended_at: new Date() });
  const live = await ctx.db.presentations.findAll({ where: { call_id: payload.call_id, status: 'live' } });
  for (const presentation of live) await endPresentation(ctx, presentation, 'call_ended', null);
}

/**
 * The follow view of a call: the live presentation of the call's deck, for one of its
 * participants. 404 while nothing is presented, and once the call has ended.
 */
export async function callPresentation(ctx: SlidesContext, callId: string): Promise<Presentation> {
  const call = isUuid(callId) ? await ctx.db.deckCalls.findById(callId) : null;
  if (!call || call.status !== 'live') throw new NotFoundError(`No live call ${callId} started from a deck`);
  if (!call.participant_ids.includes(ctx.member.id)) throw new ForbiddenError(`You are not a participant of call ${callId}`);
  const presentation = await ctx.db.presentations.findOne({ where: { call_id: call.id, status: 'live' } });
  if (!presentation) throw new NotFoundError(`Nothing is presented in call ${callId} yet`);
  return presentation;
}
