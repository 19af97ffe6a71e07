import { column, defineModel, type DeclaredRow } from '@wpk/sdk';
import type { Slide, Theme } from '../services/content.js';

/**
 * A deck: its title and theme, and its ordered slides (each with its layout, elements and speaker
 * notes). The slides are a collaborative document (`deck_documents`, services/document.ts); the
 * row's `slides` is its stable JSON snapshot, rewritten with every change in the same transaction.
 */
export type Deck = DeclaredRow<typeof decks>;

export const decks = defineModel('decks', {
  id: column.uuid().primaryKey().defaultRandom(),
  title: column.string(200),
  theme: column.json<Theme>(),
  slides: column.json<Slide[]>(),
  /** Rises by one with each change of title, theme or slides. */
  version: column.integer().default(1),
  slide_count: column.integer().default(0),
  creator_id: column.uuid(),
  /** When a live edit last emitted `core.slides.deck.updated` (one event for a burst of edits). */
  edited_event_at: column.date().nullable(),
});

/** A deck's slides as a Yjs document: its snapshot (`state`), the stable JSON `{slides}` and its text. */
export const deckDocuments = defineModel('deck_documents', {
  deck_id: column.uuid().primaryKey(),
  state: column.blob().nullable(),
  content: column.json<unknown>(),
  text: column.text(),
});

/** A Yjs update of a deck's slides not yet merged into the snapshot. */
export const deckUpdates = defineModel('deck_updates', {
  id: column.uuid().primaryKey().defaultRandom(),
  deck_id: column.uuid(),
  data: column.blob(),
  member_id: column.uuid().nullable(),
});

export const PRESENTATION_STATUSES = ['live', 'ended'] as const;
export const END_REASONS = ['ended', 'deck_deleted', 'call_ended'] as const;

/** A live (or ended) presentation of a deck: the slide shown and the one member who drives it. */
export type Presentation = DeclaredRow<typeof presentations>;

export const presentations = defineModel('presentations', {
  id: column.uuid().primaryKey().defaultRandom(),
  deck_id: column.uuid(),
  presenter_id: column.uuid(),
  driver_id: column.uuid(),
  slide: column.integer().default(0),
  status: column.enum(PRESENTATION_STATUSES, 10).default('live'),
  /** The call the deck is presented in (a call started from the deck), or null. */
  call_id: column.uuid().nullable(),
  started_at: column.date(),
  ended_at: column.date().nullable(),
  end_reason: column.enum(END_REASONS, 20).nullable(),
});

/** A view-only link to a deck: only its token's SHA-256 is kept (the link is shown once). */
export type Link = DeclaredRow<typeof links>;

export const links = defineModel('links', {
  id: column.uuid().primaryKey().defaultRandom(),
  deck_id: column.uuid(),
  token_hash: column.string(64),
  created_by: column.uuid(),
  expires_at: column.date().nullable(),
});

/** A comment on a slide, or on one element of it (`element_id`). */
export type Comment = DeclaredRow<typeof comments>;

export const comments = defineModel('comments', {
  id: column.uuid().primaryKey().defaultRandom(),
  deck_id: column.uuid(),
  slide_id: column.string(64),
  element_id: column.string(64).nullable(),
  body: column.text(),
  author_id: column.uuid(),
  resolved_at: column.date().nullable(),
  resolved_by: column.uuid().nullable(),
});

/** Event-fed copy of a call started from a deck (`source_mrn` names the deck): who takes part, until it ends. */
export type DeckCall = DeclaredRow<typeof deckCalls>;

export const deckCalls = defineModel('deck_calls', {
  id: column.uuid().primaryKey(),
  deck_id: column.uuid(),
  participant_ids: column.json<string[]>(),
  status: column.enum(['live', 'ended'] as const, 10),
  ended_at: column.date().nullable(),
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { decks, deckDocuments, deckUpdates, presentations, links, comments, deckCalls };

export type Models = typeof models;
