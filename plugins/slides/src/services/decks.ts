import { ConflictError, formatMrn, InvalidError, memberMrn, newId } from '@wpk/sdk';
import { resource, type SlidesBaseContext, type SlidesContext } from '../kit.js';
import type { Deck } from '../models/index.js';
import { DEFAULT_THEME, imageKeys, normalizeSlides, type Slide, type Theme } from './content.js';
import { canonical, deckDocuments, ensureDocument, mirroredFields, writeDeckFields, writeSlides } from './document.js';
import { keysInRow } from './order.js';
import { deckDocument } from './present.js';
import { endPresentation } from './presentations.js';

export const deckMrn = (deckId: string) => formatMrn('slides', 'deck', deckId);

/** Decks of the workspace: get-or-404, the list (most recently changed first, `q` over the title), the index and the events of every write. */
export const decks = resource({
  model: 'decks',
  label: 'Deck',
  order: [['updated_at', 'DESC'], ['id', 'ASC']],
  searchColumns: ['title'],
  search: { type: 'deck', document: deckDocument },
  events: {
    created: (deck) => ['core.slides.deck.created', { deck_id: deck.id, deck_mrn: deckMrn(deck.id), title: deck.title, slide_count: deck.slide_count, creator_mrn: memberMrn(deck.creator_id) }],
    updated: (deck, changed, ctx) => [
      'core.slides.deck.updated',
      { deck_id: deck.id, deck_mrn: deckMrn(deck.id), version: deck.version, changed_fields: changed.filter((name) => ['title', 'theme', 'slides'].includes(name)), slide_count: deck.slide_count, updated_by: memberMrn(ctx.member!.id) },
    ],
    deleted: (deck, ctx) => ['core.slides.deck.deleted', { deck_id: deck.id, deck_mrn: deckMrn(deck.id), title: deck.title, deleted_by: memberMrn(ctx.member!.id) }],
  },
});

/** The deck, or 404 (`lock`: a row lock until the transaction ends). */
export function requireDeck(ctx: SlidesBaseContext, deckId: string, lock?: 'update' | 'share') {
  return decks.require(ctx, deckId, lock ? { lock } : {});
}

export function listDecks(ctx: SlidesContext, query: { q?: string }) {
  return decks.list(ctx, { q: query.q });
}

type SlidesInput = Parameters<typeof normalizeSlides>[1];

/** Refuses a deck over the settings' slide count and an image element whose file was never uploaded. */
async function checkSlides(ctx: SlidesBaseContext, slides: Slide[]): Promise<void> {
  const max = ctx.settings.max_slides_per_deck;
  if (slides.length > max) throw new InvalidError(`slides must hold at most ${max} slides (the settings' max_slides_per_deck)`, { field: 'slides' });
  for (const [i, slide] of slides.entries()) {
    for (const [j, element] of slide.elements.entries()) {
      if (element.type === 'image' && !(await ctx.storage.head(element.file_key!))) {
        throw new InvalidError(`slides[${i}].elements[${j}].file_key: no image was uploaded at ${element.file_key}`, { field: `slides[${i}].elements[${j}].file_key` });
      }
    }
  }
}

/** A new deck: the slides given, or one title slide naming the deck. */
export async function createDeck(ctx: SlidesContext, input: { title: string; theme?: Partial<Theme>; slides?: SlidesInput }): Promise<Deck> {
  const id = newId();
  const theme = { ...DEFAULT_THEME, ...input.theme };
  const written = normalizeSlides(null, input.slides ?? [{ layout: 'title' }], theme, input.title);
  await checkSlides(ctx, written);
  // The keys the document's first state gives them (services/order.ts), so the row and the document agree.
  const keys = keysInRow(written.length);
  const slides = written.map((slide, index) => ({ ...slide, order: keys[index] }));
  const deck = await decks.create(ctx, { id, title: input.title, theme, slides, slide_count: slides.length, version: 1, creator_id: ctx.member.id });
  await ensureDocument(ctx, deck);
  return deck;
}

/**
 * UpdateDeck: title, theme (merged over the deck's) and slides (the whole ordered list), written
 * on the version the caller read; the slides go into the deck's collaborative document as one
 * server edit (services/document.ts), so live editors receive it. A stale version is a 409 naming the current one (reload, merge,
 * write again); a change moves the version up by one. A PATCH that changes nothing answers the
 * deck as it is and emits nothing.
 */
export async function updateDeck(ctx: SlidesContext, deckId: string, input: { version: number; title?: string; theme?: Partial<Theme>; slides?: SlidesInput }): Promise<Deck> {
  const deck = await requireDeck(ctx, deckId, 'update');
  if (input.version !== deck.version) {
    throw new ConflictError(`Deck ${deck.id} is at version ${deck.version}; this change was made on version ${input.version}: read the deck again and apply it there`, { field: 'version' });
  }
  const title = input.title ?? deck.title;
  const theme = input.theme ? { ...deck.theme, ...input.theme } : deck.theme;
  const slides = input.slides ? normalizeSlides(deck.id, input.slides, theme) : null;
  if (slides) await checkSlides(ctx, slides);
  const unordered = (list: Slide[]) => canonical(list.map(({ order: _order, ...slide }) => slide));
  const slidesChange = slides !== null && unordered(slides) !== unordered(deck.slides);
  if (title === deck.title && canonical(theme) === canonical(deck.theme) && !slidesChange) return deck;
  // A server edit of the collaborative document (title and theme in its `deck` map, the slides as the fewest changes, by id): live editors receive it, and its snapshot is what the row keeps.
  await ensureDocument(ctx, deck);
  const result = await deckDocuments.apply(ctx, deck.id, { edit: (doc) => {
    writeDeckFields(doc, { title, theme });
    if (slidesChange) writeSlides(doc, slides!);
  } }, ctx.member.id);
  const { changes } = mirroredFields(deck, result.content);
  if (!slidesChange) {
    delete changes.slides;
    delete changes.slide_count;
  }
  const { row, changed } = await decks.patch(ctx, deck, changes, { touch: (before) => ({ version: before.version + 1 }) });
  ctx.live.publish(`decks/${row.id}`, 'deck.updated', { id: row.id, version: row.version, changed_fields: changed.filter((name) => name !== 'slide_count') });
  return row;
}

/** Deletes a deck and its images (an image dropped from the slides stays until then: an undo may bring it back); a live presentation of it ends. */
export async function deleteDeck(ctx: SlidesContext, deckId: string): Promise<{ id: string; deleted: true }> {
  const deck = await requireDeck(ctx, deckId, 'update');
  const live = await ctx.db.presentations.findOne({ where: { deck_id: deck.id, status: 'live' } });
  if (live) await endPresentation(ctx, live, 'deck_deleted', ctx.member.id);
  await ctx.db.presentations.destroy({ where: { deck_id: deck.id } });
  await ctx.db.links.destroy({ where: { deck_id: deck.id } });
  await ctx.db.comments.destroy({ where: { deck_id: deck.id } });
  await deckDocuments.remove(ctx, deck.id);
  await decks.remove(ctx, deck);
  for (const key of imageKeys(deck.slides)) await ctx.storage.delete(key);
  ctx.live.publish(`decks/${deck.id}`, 'deck.deleted', { id: deck.id });
  return { id: deck.id, deleted: true };
}
