import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { END_REASONS, PRESENTATION_STATUSES } from '../models/index.js';

/**
 * The records the app answers with (services/present.ts builds them), declared on the routes
 * (`answers`): they go into the OpenAPI document and the typed client, and the test harness
 * checks every answer of the app's tests against them.
 */
const link = () => Joi.object({ url: Joi.string(), method: Joi.string().valid('GET', 'PUT'), expires_at: field.instant() });

const DECK_FIELDS = {
  id: field.uuid(),
  mrn: field.mrn(),
  title: Joi.string(),
  version: Joi.number().integer().min(1).description('Rises by one with each change; a PATCH names the version it was made on'),
  slide_count: field.count(),
  creator_id: field.uuid(),
  creator_mrn: field.memberMrn(),
  created_at: field.instant(),
  updated_at: field.instant(),
};

export const DECK_SUMMARY: JoiObjectSchema = recordSchema(DECK_FIELDS).id('SlidesDeckSummary');

export const DECK: JoiObjectSchema = recordSchema({
  ...DECK_FIELDS,
  theme: Joi.object().unknown().description('font, background, text, accent'),
  slides: Joi.array().items(Joi.object().unknown()).description('Slides in their order: id, order (the fractional key they are sorted by), layout, elements, notes, background'),
  live_presentation_id: field.uuid().allow(null).description('The deck\'s live presentation, if any'),
}).id('SlidesDeck');

export const DECK_DOCUMENT: JoiObjectSchema = recordSchema({
  deck_id: field.uuid(),
  update: Joi.string().allow('').description("The deck's document as one Yjs update (base64): the roots slides (a Y.Array of Y.Map, ordered by each slide's order key) and deck (a Y.Map: title, theme)"),
  content: Joi.object().unknown(true).description('The stable JSON snapshot: {slides, deck: {title, theme}}, the slides as GET /slides/decks/{deck_id} answers them'),
  editable: Joi.boolean().description('Whether the caller may send updates (slides.decks.edit)'),
}).id('SlidesDeckDocument');

export const APPLIED_UPDATE: JoiObjectSchema = recordSchema({
  deck_id: field.uuid(),
  applied: Joi.boolean().description('False when the update brought nothing new'),
  version: Joi.number().integer().min(1).description("The deck's version after it (one more when the slides changed)"),
}).id('SlidesAppliedUpdate');

export const PRESENTATION: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  deck_id: field.uuid(),
  deck_mrn: field.mrn(),
  status: Joi.string().valid(...PRESENTATION_STATUSES),
  slide: field.count().description('The slide shown, counted from 0'),
  presenter_id: field.uuid(),
  presenter_mrn: field.memberMrn(),
  driver_id: field.uuid(),
  driver_mrn: field.memberMrn(),
  call_id: field.uuid().allow(null),
  channel: Joi.string().description('The live channel followers subscribe to'),
  started_at: field.instant(),
  ended_at: field.optionalInstant(),
  end_reason: Joi.string().valid(...END_REASONS).allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('SlidesPresentation');

export const IMAGE_UPLOAD: JoiObjectSchema = recordSchema({ image_id: field.uuid(), file_key: Joi.string(), content_type: Joi.string(), upload: link() }).id('SlidesImageUpload');
export const IMAGE: JoiObjectSchema = recordSchema({ image_id: field.uuid(), file_key: Joi.string(), content_type: Joi.string(), size_bytes: Joi.number().integer(), download: link() }).id('SlidesImage');
export const DELETED: JoiObjectSchema = recordSchema({ id: Joi.string(), deleted: Joi.boolean() }).id('SlidesDeleted');

const LINK_FIELDS = {
  id: field.uuid(),
  deck_id: field.uuid(),
  created_by: field.uuid(),
  created_by_mrn: field.memberMrn(),
  expires_at: field.optionalInstant(),
  created_at: field.instant(),
};
export const LINK: JoiObjectSchema = recordSchema(LINK_FIELDS).id('SlidesLink');
export const NEW_LINK: JoiObjectSchema = recordSchema({ ...LINK_FIELDS, url: Joi.string().description('The link itself: answered once, when it is made') }).id('SlidesNewLink');

export const SHARED_DECK: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  title: Joi.string(),
  version: Joi.number().integer(),
  slide_count: field.count(),
  theme: Joi.object().unknown(),
  slides: Joi.array().items(Joi.object().unknown()).description('The slides, speaker notes left out'),
  updated_at: field.instant(),
}).id('SlidesSharedDeck');

export const COMMENT: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  deck_id: field.uuid(),
  slide_id: Joi.string(),
  element_id: Joi.string().allow(null).description('The element commented on, or null: the whole slide'),
  body: Joi.string(),
  author_id: field.uuid(),
  author_mrn: field.memberMrn(),
  resolved: Joi.boolean(),
  resolved_at: field.optionalInstant(),
  resolved_by: field.uuid().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('SlidesComment');
