import { Joi } from '@wpk/sdk';
import { publicRoute, route, routeFamily, type SlidesContext } from '../kit.js';
import type { Deck } from '../models/index.js';
import { callPresentation } from '../services/calls.js';
import { slidesSchema, themeSchema } from '../services/content.js';
import { createDeck, deleteDeck, listDecks, requireDeck, updateDeck } from '../services/decks.js';
import { applyUpdate, readDocument } from '../services/document.js';
import { createImageUpload, IMAGE_MAX_BYTES, IMAGE_TYPES, readImage } from '../services/images.js';
import { presentDeck, presentDeckSummary, presentPresentation } from '../services/present.js';
import { livePresentation, requirePresentation, startPresentation, stopPresentation, updatePresentation } from '../services/presentations.js';
import { EXPORT_FORMATS, exportDeck, type ExportFormat } from '../services/exports.js';
import { createLink, deleteLink, listLinks, presentSharedDeck, sharedDeck } from '../services/links.js';
import { createComment, deleteComment, listComments, presentComment, updateComment } from '../services/comments.js';
import { APPLIED_UPDATE, COMMENT, DECK, DECK_DOCUMENT, DECK_SUMMARY, DELETED, IMAGE, IMAGE_UPLOAD, LINK, NEW_LINK, PRESENTATION, SHARED_DECK } from './answers.js';

const id = () => Joi.id();
const params = (...names: string[]) => Joi.object(Object.fromEntries(names.map((name) => [name, id().required()])));
const title = () => Joi.string().trim().min(1).max(200);
/** The schema's hard ceiling; the settings' max_slides_per_deck is checked by the service. */
const SLIDES_CEILING = 1000;
const slide = () => Joi.number().integer().min(0).max(SLIDES_CEILING);

const D = '/slides/decks/{deck_id}';
const P = '/slides/presentations/{presentation_id}';

const decks = routeFamily('/slides/decks', { record: DECK_SUMMARY });

async function deckAnswer(ctx: SlidesContext, deck: Deck) {
  const live = await livePresentation(ctx, deck.id);
  return { ...presentDeck(deck), live_presentation_id: live?.id ?? null };
}

/** Every route of the Slides app (the manifest's authorization table lists the same). */
export const routes = [
  decks.list({
    chain: ['slides.decks.read'],
    description: 'Lists decks, most recently changed first (without their slides); q matches the title',
    query: Joi.listQuery({ q: Joi.string().max(200).allow('') }),
    async handler(request, ctx) {
      const { rows, count } = await listDecks(ctx, request.query);
      return ctx.respond.collection(rows.map(presentDeckSummary), count);
    },
  }),
  route({
    method: 'POST',
    path: '/slides/decks',
    chain: ['slides.decks.create'],
    answers: { single: DECK },
    description: 'Creates a deck: the slides given (a slide without elements takes its layout\'s placeholders), or one title slide',
    validate: { payload: Joi.object({ title: title().required(), theme: themeSchema(), slides: slidesSchema(SLIDES_CEILING) }) },
    async handler(request, ctx) {
      const deck = await createDeck(ctx, request.payload as never);
      return ctx.respond.single({ ...presentDeck(deck), live_presentation_id: null }, { self: `/slides/decks/${deck.id}` });
    },
  }),
  route({
    method: 'GET',
    path: D,
    chain: ['slides.decks.read'],
    answers: { single: DECK },
    description: 'Reads a deck: its theme, slides (layouts, elements, speaker notes) and version',
    validate: { params: params('deck_id') },
    async handler(request, ctx) {
      const deck = await requireDeck(ctx, request.params.deck_id);
      return ctx.respond.single(await deckAnswer(ctx, deck), { presentations: `/slides/decks/${deck.id}/presentations` });
    },
  }),
  route({
    method: 'PATCH',
    path: D,
    chain: ['slides.decks.edit'],
    answers: { single: DECK },
    description: 'UpdateDeck: title, theme (merged) and the whole ordered slides, on the version read (a stale version is a 409 naming the current one)',
    validate: {
      params: params('deck_id'),
      payload: Joi.object({ version: Joi.number().integer().min(1).required(), title: title(), theme: themeSchema(), slides: slidesSchema(SLIDES_CEILING) }).or('title', 'theme', 'slides'),
    },
    async handler(request, ctx) {
      const deck = await updateDeck(ctx, request.params.deck_id, request.payload as never);
      return ctx.respond.single(await deckAnswer(ctx, deck));
    },
  }),
  route({
    method: 'GET',
    path: `${D}/document`,
    chain: ['slides.decks.read'],
    answers: { single: DECK_DOCUMENT },
    description: "Reads the deck's collaborative document: its slides as one Yjs update (base64), its JSON snapshot, and whether the caller may edit",
    validate: { params: params('deck_id') },
    async handler(request, ctx) {
      const deck = await requireDeck(ctx, request.params.deck_id);
      return ctx.respond.single(await readDocument(ctx, deck));
    },
  }),
  route({
    method: 'POST',
    path: `${D}/updates`,
    chain: ['slides.decks.edit'],
    answers: { single: APPLIED_UPDATE },
    description: "Applies a Yjs update (base64) to the deck's slides: checked like a PATCH (each refusal names slides[i].elements[j].field), merged, stored, and relayed on slides/decks/{deck_id} as doc.updated",
    validate: { params: params('deck_id'), payload: Joi.object({ update: Joi.string().min(1).max(1_400_000).required() }) },
    async handler(request, ctx) {
      const deck = await requireDeck(ctx, request.params.deck_id, 'update');
      return ctx.respond.single(await applyUpdate(ctx, deck, request.payload.update));
    },
  }),
  route({
    method: 'DELETE',
    path: D,
    chain: [{ any_of: [{ check: 'deck_creator' }, 'slides.decks.delete'], message: 'Cannot delete this deck' }],
    answers: { single: DELETED },
    description: 'Deletes a deck with its images; its live presentation ends (its creator, or slides.decks.delete)',
    validate: { params: params('deck_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteDeck(ctx, request.params.deck_id));
    },
  }),
  route({
    method: 'POST',
    path: `${D}/images`,
    chain: ['slides.decks.edit'],
    answers: { single: IMAGE_UPLOAD },
    description: 'Gives a signed link (PUT, 15 minutes) to upload an image for an image element',
    validate: {
      params: params('deck_id'),
      payload: Joi.object({ content_type: Joi.string().valid(...IMAGE_TYPES).required(), size_bytes: Joi.number().integer().min(1).max(IMAGE_MAX_BYTES) }),
    },
    async handler(request, ctx) {
      return ctx.respond.single(await createImageUpload(ctx, request.params.deck_id, request.payload));
    },
  }),
  route({
    method: 'GET',
    path: `${D}/images/{image_id}`,
    chain: ['slides.decks.read'],
    answers: { single: IMAGE },
    description: "Gives a signed link (five minutes) to download one of the deck's images",
    validate: { params: params('deck_id', 'image_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await readImage(ctx, request.params.deck_id, request.params.image_id));
    },
  }),
  route({
    method: 'POST',
    path: `${D}/presentations`,
    chain: ['slides.presentations.start'],
    answers: { single: PRESENTATION },
    description: 'Starts presenting the deck (one live presentation per deck): the caller presents and drives; followers subscribe to its channel',
    validate: { params: params('deck_id'), payload: Joi.object({ slide: slide() }).allow(null) },
    async handler(request, ctx) {
      const deck = await requireDeck(ctx, request.params.deck_id, 'share');
      const presentation = await startPresentation(ctx, deck, request.payload ?? {});
      return ctx.respond.single(presentPresentation(presentation), { self: `/slides/presentations/${presentation.id}` });
    },
  }),
  route({
    method: 'GET',
    path: P,
    chain: ['slides.decks.read'],
    answers: { single: PRESENTATION },
    description: 'Reads a presentation: the slide shown and who drives (a follower joining late starts here)',
    validate: { params: params('presentation_id') },
    async handler(request, ctx) {
      return ctx.respond.single(presentPresentation(await requirePresentation(ctx, request.params.presentation_id)));
    },
  }),
  route({
    method: 'PATCH',
    path: P,
    chain: ['slides.decks.read'],
    answers: { single: PRESENTATION },
    description: 'UpdatePresentation: the driver moves to a slide and/or hands the presentation on (driver); the presenter may take it back',
    validate: { params: params('presentation_id'), payload: Joi.object({ slide: slide(), driver: Joi.memberMrn() }).or('slide', 'driver') },
    async handler(request, ctx) {
      return ctx.respond.single(presentPresentation(await updatePresentation(ctx, request.params.presentation_id, request.payload)));
    },
  }),
  route({
    method: 'DELETE',
    path: P,
    chain: ['slides.decks.read'],
    answers: { single: PRESENTATION },
    description: 'Ends a presentation (its driver or presenter): followers get presentation.ended',
    validate: { params: params('presentation_id') },
    async handler(request, ctx) {
      return ctx.respond.single(presentPresentation(await stopPresentation(ctx, request.params.presentation_id)));
    },
  }),
  route({
    method: 'GET',
    path: '/slides/calls/{call_id}/presentation',
    chain: ['slides.decks.read'],
    answers: { single: PRESENTATION },
    description: "The follow view of a call started from a deck: the deck's live presentation, for the call's participants, until the call ends",
    validate: { params: params('call_id') },
    async handler(request, ctx) {
      return ctx.respond.single(presentPresentation(await callPresentation(ctx, request.params.call_id)));
    },
  }),
  route({
    method: 'GET',
    path: `${D}/export`,
    chain: ['slides.decks.export'],
    answers: { file: 'application/pdf' },
    description: 'The deck as it is now: format=pdf (printed by Chromium, one page per slide) or pptx (PowerPoint, with speaker notes)',
    validate: { params: params('deck_id'), query: Joi.object({ format: Joi.string().valid(...EXPORT_FORMATS).required() }) },
    async handler(request, ctx) {
      const deck = await requireDeck(ctx, request.params.deck_id);
      const file = await exportDeck(ctx, deck, request.query.format as ExportFormat);
      return ctx.respond.file(file.bytes, { contentType: file.contentType, filename: file.filename });
    },
  }),
  route({
    method: 'GET',
    path: `${D}/links`,
    chain: ['slides.decks.share'],
    answers: { collection: LINK },
    description: "Lists the deck's view-only links (without the links themselves)",
    validate: { params: params('deck_id'), query: Joi.listQuery() },
    async handler(request, ctx) {
      const rows = await listLinks(ctx, request.params.deck_id);
      return ctx.respond.collection(rows.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), rows.length);
    },
  }),
  route({
    method: 'POST',
    path: `${D}/links`,
    chain: ['slides.decks.share'],
    answers: { single: NEW_LINK },
    description: 'Makes a view-only link to the deck (slides without speaker notes, no account needed), answered once; expires_at optional',
    validate: { params: params('deck_id'), payload: Joi.object({ expires_at: Joi.instant() }).allow(null) },
    async handler(request, ctx) {
      return ctx.respond.single(await createLink(ctx, request.params.deck_id, request.payload ?? {}));
    },
  }),
  route({
    method: 'DELETE',
    path: '/slides/links/{link_id}',
    chain: ['slides.decks.share'],
    answers: { single: DELETED },
    description: 'Deletes a view-only link: it stops working at once',
    validate: { params: params('link_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteLink(ctx, request.params.link_id));
    },
  }),
  publicRoute({
    method: 'GET',
    path: '/slides/shared/{token}',
    answers: { single: SHARED_DECK },
    description: 'The deck behind a view-only link (POST /slides/decks/{deck_id}/links): its slides without speaker notes',
    validate: { params: Joi.object({ token: Joi.string().min(20).max(100).pattern(/^[A-Za-z0-9_-]+$/).required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(presentSharedDeck(await sharedDeck(ctx, request.params.token)));
    },
  }),
  route({
    method: 'GET',
    path: `${D}/comments`,
    chain: ['slides.decks.read'],
    answers: { collection: COMMENT },
    description: "Lists the deck's comments, oldest first; slide_id and resolved filter",
    validate: { params: params('deck_id'), query: Joi.listQuery({ slide_id: Joi.string().max(64), resolved: Joi.boolean() }) },
    async handler(request, ctx) {
      const rows = await listComments(ctx, request.params.deck_id, request.query as { slide_id?: string; resolved?: boolean });
      return ctx.respond.collection(rows.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), rows.length);
    },
  }),
  route({
    method: 'POST',
    path: `${D}/comments`,
    chain: ['slides.decks.comment'],
    answers: { single: COMMENT },
    description: 'Comments on a slide of the deck, or on one of its elements (element_id)',
    validate: { params: params('deck_id'), payload: Joi.object({ slide_id: Joi.string().max(64).required(), element_id: Joi.string().max(64), body: Joi.string().trim().min(1).max(4000).required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(presentComment(await createComment(ctx, request.params.deck_id, request.payload)));
    },
  }),
  route({
    method: 'PATCH',
    path: '/slides/comments/{comment_id}',
    chain: ['slides.decks.comment'],
    answers: { single: COMMENT },
    description: 'UpdateComment: its author edits the body; anyone who may comment resolves or reopens it',
    validate: { params: params('comment_id'), payload: Joi.object({ body: Joi.string().trim().min(1).max(4000), resolved: Joi.boolean() }).or('body', 'resolved') },
    async handler(request, ctx) {
      return ctx.respond.single(presentComment(await updateComment(ctx, request.params.comment_id, request.payload)));
    },
  }),
  route({
    method: 'DELETE',
    path: '/slides/comments/{comment_id}',
    chain: ['slides.decks.comment'],
    answers: { single: DELETED },
    description: "Deletes a comment (its author, or the deck's creator)",
    validate: { params: params('comment_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteComment(ctx, request.params.comment_id));
    },
  }),
];
