import { formatMrn, memberMrn, type SearchDocument } from '@wpk/sdk';
import type { Deck, Presentation } from '../models/index.js';
import { deckText } from './content.js';

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** A deck as the API answers it (its whole content: theme, slides, notes). */
export function presentDeck(deck: Deck) {
  return {
    id: deck.id,
    mrn: formatMrn('slides', 'deck', deck.id),
    title: deck.title,
    version: deck.version,
    theme: deck.theme,
    slides: deck.slides,
    slide_count: deck.slide_count,
    creator_id: deck.creator_id,
    creator_mrn: memberMrn(deck.creator_id),
    created_at: iso(deck.created_at),
    updated_at: iso(deck.updated_at),
  };
}

/** A deck in a list: no slides. */
export function presentDeckSummary(deck: Deck) {
  const { slides: _slides, theme: _theme, ...summary } = presentDeck(deck);
  return summary;
}

/** The search document of a deck: found by title, its text as detail. */
export function deckDocument(deck: Deck): SearchDocument {
  return { type: 'deck', id: deck.id, title: deck.title, subtitle: `Deck · ${deck.slide_count} slide${deck.slide_count === 1 ? '' : 's'}`, url: `/slides/decks/${deck.id}`, names: [deck.title], details: [deckText(deck.slides)] };
}

/** A presentation as the API answers it. */
export function presentPresentation(presentation: Presentation) {
  return {
    id: presentation.id,
    deck_id: presentation.deck_id,
    deck_mrn: formatMrn('slides', 'deck', presentation.deck_id),
    status: presentation.status,
    slide: presentation.slide,
    presenter_id: presentation.presenter_id,
    presenter_mrn: memberMrn(presentation.presenter_id),
    driver_id: presentation.driver_id,
    driver_mrn: memberMrn(presentation.driver_id),
    call_id: presentation.call_id,
    channel: `slides/presentations/${presentation.id}`,
    started_at: iso(presentation.started_at),
    ended_at: iso(presentation.ended_at),
    end_reason: presentation.end_reason,
    created_at: iso(presentation.created_at),
    updated_at: iso(presentation.updated_at),
  };
}
