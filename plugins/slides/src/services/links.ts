import { createHash, randomBytes } from 'node:crypto';
import { formatMrn, InvalidError, memberMrn, NotFoundError } from '@wpk/sdk';
import type { SlidesBaseContext, SlidesContext } from '../kit.js';
import type { Deck, Link } from '../models/index.js';
import { requireDeck } from './decks.js';
import { presentDeck } from './present.js';

/** Only a token's SHA-256 is kept: the link is shown once, when it is made. */
const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export function presentLink(link: Link, url?: string) {
  return {
    id: link.id,
    deck_id: link.deck_id,
    created_by: link.created_by,
    created_by_mrn: memberMrn(link.created_by),
    expires_at: link.expires_at ? new Date(link.expires_at).toISOString() : null,
    created_at: new Date(link.created_at).toISOString(),
    ...(url ? { url } : {}),
  };
}

/** A view-only link to the deck (anyone holding it sees the slides, never the speaker notes), until it expires or is deleted. */
export async function createLink(ctx: SlidesContext, deckId: string, input: { expires_at?: string }) {
  const deck = await requireDeck(ctx, deckId);
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw new InvalidError('expires_at must be in the future', { field: 'expires_at' });
  const token = randomBytes(24).toString('base64url');
  const link = await ctx.db.links.create({ deck_id: deck.id, token_hash: hashToken(token), created_by: ctx.member.id, expires_at: expiresAt });
  ctx.events.stage('core.slides.deck.shared', { deck_id: deck.id, deck_mrn: formatMrn('slides', 'deck', deck.id), link_id: link.id, shared_by: memberMrn(ctx.member.id), ...(expiresAt ? { expires_at: expiresAt.toISOString() } : {}) });
  return presentLink(link, `${ctx.workspace.origin}/slides/shared/${token}`);
}

export async function listLinks(ctx: SlidesContext, deckId: string) {
  const deck = await requireDeck(ctx, deckId);
  return (await ctx.db.links.findAll({ where: { deck_id: deck.id }, order: [['created_at', 'ASC'], ['id', 'ASC']] })).map((link) => presentLink(link));
}

export async function deleteLink(ctx: SlidesContext, linkId: string): Promise<{ id: string; deleted: true }> {
  const link = await ctx.db.links.findById(linkId);
  if (!link) throw new NotFoundError(`Link ${linkId} not found`);
  await ctx.db.links.destroy({ where: { id: link.id } });
  return { id: link.id, deleted: true };
}

/** The deck behind a view-only link, or 404 (unknown, deleted or expired: the same answer). */
export async function sharedDeck(ctx: SlidesBaseContext, token: string): Promise<Deck> {
  const link = await ctx.db.links.findOne({ where: { token_hash: hashToken(token) } });
  if (!link || (link.expires_at && new Date(link.expires_at).getTime() <= Date.now())) throw new NotFoundError('Link not found or expired');
  return requireDeck(ctx, link.deck_id);
}

/** A deck as a view-only link shows it: slides without speaker notes, no creator. */
export function presentSharedDeck(deck: Deck) {
  const { id, title, theme, slides, slide_count, version, updated_at } = presentDeck(deck);
  return { id, title, theme, version, slide_count, slides: slides.map((slide) => ({ ...slide, notes: '' })), updated_at };
}
