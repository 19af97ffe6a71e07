import { defineCollabDocuments, InvalidError, Joi, memberMrn, type CollabDocuments } from '@wpk/sdk';
import * as Y from 'yjs';
import type { SlidesBaseContext, SlidesContext } from '../kit.js';
import type { Deck, Models } from '../models/index.js';
import { deckDocument } from './present.js';
import { textChange } from './text-change.js';
import { DEFAULT_THEME, imageKeys, normalizeSlides, slideSchema, themeSchema, type Slide, type Theme } from './content.js';
import { allKeyed, keysFor, sortByOrder } from './order.js';

/**
 * A deck as a collaborative document on the SDK's editing stack (docs/decisions/
 * 0299-slides-on-the-editing-stack.md, amended by docs/decisions/0320-slides-order-keys-and-deck-map.md).
 * The Yjs document has two roots: `deck`, a `Y.Map` of the deck's `title` and `theme` (plain
 * values), and `slides`, a `Y.Array` of slides, each a `Y.Map`:
 *
 * - `id`, `order` (a fractional key: the slides' order is their keys', so a move changes one key and
 *   never moves the slide in the array), `layout`, `background` (plain values), `notes` (a `Y.Text`:
 *   two people writing the notes merge),
 * - `elements`: a `Y.Array` of `Y.Map`, one an element: its fields as plain values, but `text`
 *   (a text or shape element's) a `Y.Text`, so two people typing in one box merge character by
 *   character; a table's `rows` and a chart's `labels` and `series` are plain values (replaced whole).
 *
 * Its stable JSON snapshot (`{deck: {title, theme}, slides: [...]}`, the slides sorted by key) is
 * kept in `deck_documents`, and the deck row's `title`, `theme` and `slides` are rewritten from it
 * in the same transaction, so every reader (the API, exports, comments, links, search) reads the
 * document's current state without Yjs. Every update
 * is checked against the shape above and the deck's validation (each refusal names
 * `slides[i].elements[j].field`).
 */

const TEXT_FIELDS = new Set(['text', 'notes']);
/** Merge the stored updates into the snapshot once this many are stored. */
export const COMPACT_AFTER_UPDATES = 100;
/** A burst of live edits emits one `core.slides.deck.updated`: the first, then none until this long after it. */
export const UPDATED_EVENT_SECONDS = 60;

/** A slide as the document must hold it: every field present (ids given, placeholders already made). */
const storedSlides = () =>
  Joi.object({
    deck: Joi.object({ title: Joi.string().trim().min(1).max(200).required(), theme: themeSchema().fork(['font', 'background', 'text', 'accent'], (schema) => schema.required()).required() }),
    slides: Joi.array().items(slideSchema().fork(['id', 'elements', 'notes', 'background'], (schema) => schema.required())).required(),
  });

/** The document's JSON as stored: the slides in their keys' order (`services/order.ts`). */
export function deckContent(json: Record<string, unknown>): Record<string, unknown> {
  const slides = Array.isArray(json.slides) ? sortByOrder(json.slides as Slide[]) : json.slides;
  const deck = json.deck && typeof json.deck === 'object' && Object.keys(json.deck).length > 0 ? json.deck : undefined;
  return deck ? { deck, slides } : { slides };
}

/** Refuses a part of the document that is not of the Yjs type merging needs, naming it. */
function checkShape(doc: Y.Doc): void {
  const refuse = (at: string, type: string): never => {
    throw new InvalidError(`${at} must be a Y.${type} in the deck's document`, { field: at });
  };
  for (const [key, value] of doc.getMap('deck').entries()) {
    if (value instanceof Y.AbstractType) throw new InvalidError(`deck.${key} must be a plain value in the deck's document`, { field: `deck.${key}` });
  }
  doc.getArray('slides').forEach((slide, i) => {
    const at = `slides[${i}]`;
    if (!(slide instanceof Y.Map)) return refuse(at, 'Map');
    if (slide.get('order') instanceof Y.AbstractType) throw new InvalidError(`${at}.order must be a plain string in the deck's document`, { field: `${at}.order` });
    if (slide.has('notes') && !(slide.get('notes') instanceof Y.Text)) refuse(`${at}.notes`, 'Text');
    const elements = slide.get('elements');
    if (slide.has('elements') && !(elements instanceof Y.Array)) refuse(`${at}.elements`, 'Array');
    (elements as Y.Array<unknown> | undefined)?.forEach((element, j) => {
      if (!(element instanceof Y.Map)) return refuse(`${at}.elements[${j}]`, 'Map');
      if (element.has('text') && !(element.get('text') instanceof Y.Text)) refuse(`${at}.elements[${j}].text`, 'Text');
    });
  });
}

/**
 * The deck's rules over the document's JSON, as a REST write checks them: each field (Joi, the
 * platform's wording), ids present and unique, the rules between fields, the slide count and the
 * images (only those new to the deck are looked up in storage). Throws a 400 naming the field.
 */
export async function checkDeckContent(ctx: SlidesBaseContext, deckId: string, content: unknown): Promise<Slide[]> {
  const { error } = storedSlides().validate(content, { abortEarly: true, errors: { wrap: { label: false } } });
  if (error) {
    const path = error.details[0].path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)), '');
    throw new InvalidError(error.details[0].message, path ? { field: path } : undefined);
  }
  const slides = (content as { slides: Slide[] }).slides;
  if (!allKeyed(slides) && slides.some((slide) => slide.order !== undefined)) {
    const i = slides.findIndex((slide) => slide.order === undefined);
    throw new InvalidError(`slides[${i}].order is required: the deck's slides are ordered by their keys`, { field: `slides[${i}].order` });
  }
  slides.forEach((slide, i) =>
    slide.elements.forEach((element, j) => {
      if (element.id === undefined) throw new InvalidError(`slides[${i}].elements[${j}].id is required`, { field: `slides[${i}].elements[${j}].id` });
    }),
  );
  normalizeSlides(deckId, slides, DEFAULT_THEME);
  const max = ctx.settings.max_slides_per_deck;
  if (slides.length > max) throw new InvalidError(`slides must hold at most ${max} slides (the settings' max_slides_per_deck)`, { field: 'slides' });
  const row = await ctx.db.decks.findOne({ where: { id: deckId }, attributes: ['slides'] });
  const known = new Set(row ? imageKeys(row.slides) : []);
  for (const [i, slide] of slides.entries()) {
    for (const [j, element] of slide.elements.entries()) {
      if (element.type === 'image' && !known.has(element.file_key!) && !(await ctx.storage.head(element.file_key!))) {
        throw new InvalidError(`slides[${i}].elements[${j}].file_key: no image was uploaded at ${element.file_key}`, { field: `slides[${i}].elements[${j}].file_key` });
      }
    }
  }
  return slides;
}

export const deckDocuments: CollabDocuments<Models> = defineCollabDocuments<Models>({
  documents: 'deckDocuments',
  updates: 'deckUpdates',
  key: 'deck_id',
  channel: (id) => `decks/${id}`,
  compactAfter: COMPACT_AFTER_UPDATES,
  rootTypes: { deck: 'map', slides: 'array' },
  content: deckContent,
  async check(doc, ctx, id) {
    checkShape(doc);
    await checkDeckContent(ctx as SlidesBaseContext, id, deckDocuments.contentOf(doc).content);
    return null;
  },
});

/** Writes `value` into a `Y.Text` by its one changed stretch (what two writers' edits merge around). */
function writeText(target: Y.Text, value: string): void {
  const change = textChange(target.toString(), value);
  if (!change) return;
  if (change.remove > 0) target.delete(change.at, change.remove);
  if (change.insert) target.insert(change.at, change.insert);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** JSON with every object's keys sorted: the stored JSONB orders keys its own way, so a plain JSON.stringify would see changes where there are none. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );
}

/** Brings a `Y.Map` to `value`: fields gone deleted, texts by their changed stretch, elements by id. */
function writeMap(map: Y.Map<unknown>, value: Record<string, unknown>): void {
  for (const key of [...map.keys()]) if (!(key in value)) map.delete(key);
  for (const [key, inner] of Object.entries(value)) {
    const existing = map.get(key);
    if (TEXT_FIELDS.has(key) && typeof inner === 'string') {
      if (existing instanceof Y.Text) writeText(existing, inner);
      else map.set(key, new Y.Text(inner));
    } else if (key === 'elements' && Array.isArray(inner)) {
      if (existing instanceof Y.Array) writeList(existing, inner as Array<{ id: string }>);
      else writeList(map.set(key, new Y.Array<Y.Map<unknown>>()), inner as Array<{ id: string }>);
    } else if (existing instanceof Y.AbstractType || !same(existing, inner)) {
      map.set(key, inner);
    }
  }
}

/**
 * Brings a `Y.Array` of `Y.Map` to `values`, matched by id: the items kept in order stay (edited in
 * place, so a concurrent edit inside them survives), the others are deleted, the new ones inserted.
 */
function writeList(list: Y.Array<Y.Map<unknown>>, values: Array<{ id: string }>): void {
  const target = new Map(values.map((value, index) => [value.id, index]));
  let last = -1;
  for (let index = 0; index < list.length; ) {
    const item = list.get(index);
    const at = item instanceof Y.Map ? target.get(item.get('id') as string) : undefined;
    if (at === undefined || at <= last) {
      list.delete(index, 1);
      continue;
    }
    last = at;
    index++;
  }
  values.forEach((value, index) => {
    const item = index < list.length ? list.get(index) : null;
    if (!(item instanceof Y.Map) || item.get('id') !== value.id) list.insert(index, [new Y.Map()]);
    writeMap(list.get(index), value as unknown as Record<string, unknown>);
  });
}

/**
 * Writes the slides into the document as the fewest changes (a REST write, a deck's first state),
 * matched by id wherever they are in the array: a slide kept stays where it is and is edited in
 * place, keeping its order key when it is among the most keys that still sort in the new order
 * (`keysFor`); a new slide is appended with its key.
 */
export function writeSlides(doc: Y.Doc, slides: Slide[]): void {
  const list = doc.getArray<Y.Map<unknown>>('slides');
  const wanted = new Set(slides.map((slide) => slide.id));
  const existing = new Map<string, string>();
  for (let index = list.length - 1; index >= 0; index -= 1) {
    const item = list.get(index);
    const id = item instanceof Y.Map ? (item.get('id') as string) : undefined;
    if (id === undefined || !wanted.has(id) || existing.has(id)) list.delete(index, 1);
    else if (typeof item.get('order') === 'string') existing.set(id, item.get('order') as string);
    else existing.set(id, '');
  }
  const keyed = new Map([...existing].filter(([, key]) => key !== ''));
  const keys = keysFor(slides.map((slide) => slide.id), keyed);
  const byId = new Map(list.toArray().map((item) => [item.get('id') as string, item]));
  slides.forEach((slide, index) => {
    let item = byId.get(slide.id);
    if (!item) list.push([(item = new Y.Map())]);
    writeMap(item, { ...slide, order: keys[index] } as unknown as Record<string, unknown>);
  });
}

/** Writes the deck's title and theme into the document's `deck` map (a plain value each). */
export function writeDeckFields(doc: Y.Doc, fields: { title: string; theme: Theme }): void {
  const map = doc.getMap<unknown>('deck');
  if (map.get('title') !== fields.title) map.set('title', fields.title);
  if (!same(map.get('theme'), fields.theme)) map.set('theme', fields.theme);
}

/**
 * The deck's document, made from its row when it has none yet (a deck older than the editing
 * stack); a document older than the order keys and the `deck` map gets them from the row (its
 * slides keyed in their order). Call with the deck's row locked.
 */
export async function ensureDocument(ctx: SlidesBaseContext, deck: Deck): Promise<void> {
  const snapshot = await deckDocuments.snapshot(ctx, deck.id);
  const content = snapshot?.content as { deck?: unknown; slides?: Slide[] } | undefined;
  if (content && content.deck && allKeyed(content.slides ?? [])) return;
  if (!snapshot) await deckDocuments.create(ctx, deck.id);
  const slides = content?.slides ?? deck.slides;
  await deckDocuments.apply(ctx, deck.id, { edit: (doc) => {
    writeDeckFields(doc, { title: deck.title, theme: deck.theme });
    writeSlides(doc, slides);
  } }, null);
}

/** The row's fields a document's snapshot changes (slides always; title and theme when they differ from the row's). */
export function mirroredFields(deck: Deck, content: unknown): { changes: Partial<Deck>; changed: Array<'title' | 'theme' | 'slides'> } {
  const { slides, deck: fields } = content as { slides: Slide[]; deck?: { title: string; theme: Theme } };
  const changes: Partial<Deck> = {};
  const changed: Array<'title' | 'theme' | 'slides'> = [];
  if (fields && fields.title !== deck.title) changes.title = fields.title;
  if (fields && !sameTheme(fields.theme, deck.theme)) changes.theme = fields.theme;
  Object.assign(changes, { slides, slide_count: slides.length });
  if (changes.title !== undefined) changed.push('title');
  if (changes.theme !== undefined) changed.push('theme');
  if (canonical(slides) !== canonical(deck.slides)) changed.push('slides');
  return { changes, changed };
}

const sameTheme = (a: Theme, b: Theme) => (['font', 'background', 'text', 'accent'] as const).every((key) => a[key] === b[key]);

/** What the deck row keeps of a changed document: its title, theme and slides (its JSON snapshot), their count and the next version. */
export async function mirrorSlides(ctx: SlidesBaseContext, deck: Deck, content: unknown, changes: Partial<Deck> = {}): Promise<{ row: Deck; changed: Array<'title' | 'theme' | 'slides'> }> {
  const mirrored = mirroredFields(deck, content);
  await ctx.db.decks.update({ ...changes, ...mirrored.changes, version: deck.version + 1 }, { where: { id: deck.id } });
  const row = (await ctx.db.decks.findById(deck.id))!;
  ctx.search.upsert(deckDocument(row));
  return { row, changed: mirrored.changed.length > 0 ? mirrored.changed : ['slides'] };
}

export function decodeUpdate(encoded: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw new InvalidError('update: must be base64', { field: 'update' });
  const bytes = Buffer.from(encoded, 'base64');
  try {
    Y.decodeUpdate(bytes);
  } catch {
    throw new InvalidError('update: not a Yjs update (it could not be decoded)', { field: 'update' });
  }
  return new Uint8Array(bytes);
}

/** The deck's document for a client: the whole Yjs state (base64), its JSON snapshot, the version and whether the caller may edit. */
export async function readDocument(ctx: SlidesContext, deck: Deck) {
  if (!(await deckDocuments.snapshot(ctx, deck.id))) {
    const locked = await ctx.db.decks.findById(deck.id, { lock: 'update' });
    if (locked) await ensureDocument(ctx, locked);
  }
  const state = await deckDocuments.state(ctx, deck.id);
  const snapshot = await deckDocuments.snapshot(ctx, deck.id);
  return { deck_id: deck.id, update: Buffer.from(state).toString('base64'), content: (snapshot?.content ?? { slides: [] }) as Record<string, unknown>, editable: ctx.permissions.has('slides.decks.edit') };
}

/**
 * Applies a client's Yjs update (base64) to the deck's slides: checked (the document's shape and
 * the deck's rules), stored, relayed on `slides/decks/{id}` as `doc.updated`; when the slides
 * changed, the row's slides, count and version follow, the index too, and the first edit of a
 * burst emits `core.slides.deck.updated`.
 */
export async function applyUpdate(ctx: SlidesContext, deck: Deck, encoded: string) {
  const update = decodeUpdate(encoded);
  await ensureDocument(ctx, deck);
  const result = await deckDocuments.apply(ctx, deck.id, { update }, ctx.member.id);
  if (!result.content_changed) return { deck_id: deck.id, applied: result.changed, version: deck.version };
  const now = ctx.now();
  const quiet = !deck.edited_event_at || now.getTime() - new Date(deck.edited_event_at).getTime() >= UPDATED_EVENT_SECONDS * 1000;
  const { row, changed } = await mirrorSlides(ctx, deck, result.content, quiet ? { edited_event_at: now } : {});
  ctx.live.publish(`decks/${row.id}`, 'deck.updated', { id: row.id, version: row.version, changed_fields: changed });
  if (quiet) {
    ctx.events.stage('core.slides.deck.updated', { deck_id: row.id, deck_mrn: `mrn:slides:deck:${row.id}`, version: row.version, changed_fields: changed, slide_count: row.slide_count, updated_by: memberMrn(ctx.member.id) });
  }
  return { deck_id: deck.id, applied: true, version: row.version };
}
