import { isUuid } from '@wpk/sdk';
import { check } from './kit.js';

/**
 * `deck_creator`: the caller created the deck in the path. A check runs before validation: for
 * an id that is no uuid or names no deck it passes, so the request goes on to its 400 or 404.
 */
export const deckCreator = check(async (request, ctx) => {
  const id = request.params.deck_id;
  if (!isUuid(id)) return true;
  const deck = await ctx.db.decks.findOne({ where: { id }, attributes: ['id', 'creator_id'] });
  return deck === null || deck.creator_id === ctx.member.id;
});

/** The named checks the authorization table uses. */
export const checks = { deck_creator: deckCreator };
