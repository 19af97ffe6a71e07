import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { EXPORT_TARGETS, SESSION_STATUSES } from '../models/index.js';
import { ARROWS, OBJECT_TYPES, SHAPES } from '../services/objects-model.js';

/**
 * The records the app answers with (services/present.ts builds them), declared on the routes
 * (`answers`): they go into the OpenAPI document and the typed client, and the test harness
 * checks every answer of the app's tests against them.
 */
const nullableNumber = () => Joi.number().allow(null);
const link = () => Joi.object({ url: Joi.string(), method: Joi.string().valid('GET', 'PUT'), expires_at: field.instant() });

export const BOARD: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  description: Joi.string().allow(''),
  object_count: Joi.number().integer().description('Objects on the board after its last change'),
  creator_id: field.uuid(),
  creator_mrn: field.memberMrn(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('CanvasBoard');

export const OBJECT: JoiObjectSchema = recordSchema({
  id: Joi.string(),
  type: Joi.string().valid(...OBJECT_TYPES),
  x: Joi.number(),
  y: Joi.number(),
  width: nullableNumber(),
  height: nullableNumber(),
  rotation: Joi.number(),
  z: Joi.number().description('Stacking order: higher is drawn on top'),
  text: Joi.string().allow('', null),
  color: Joi.string().allow(null),
  stroke: Joi.string().allow(null),
  shape: Joi.string().valid(...SHAPES).allow(null),
  font_size: nullableNumber(),
  end_x: nullableNumber(),
  end_y: nullableNumber(),
  from_id: Joi.string().allow(null),
  to_id: Joi.string().allow(null),
  arrow: Joi.string().valid(...ARROWS).allow(null),
  file_key: Joi.string().allow(null),
  alt: Joi.string().allow('', null),
}).id('CanvasObject');

export const DELETED_OBJECT: JoiObjectSchema = recordSchema({ id: Joi.string(), deleted: Joi.boolean(), unbound_ids: Joi.array().items(Joi.string()) }).id('CanvasDeletedObject');

export const DOCUMENT: JoiObjectSchema = recordSchema({
  board_id: field.uuid(),
  update: Joi.string().description('The whole document as one Yjs update, base64'),
  state_vector: Joi.string().description('The document\'s Yjs state vector, base64'),
  object_count: Joi.number().integer(),
}).id('CanvasDocument');

export const APPLIED_UPDATE: JoiObjectSchema = recordSchema({
  board_id: field.uuid(),
  created_ids: Joi.array().items(Joi.string()),
  updated_ids: Joi.array().items(Joi.string()),
  deleted_ids: Joi.array().items(Joi.string()),
  object_count: Joi.number().integer(),
}).id('CanvasAppliedUpdate');

export const IMAGE_UPLOAD: JoiObjectSchema = recordSchema({ image_id: field.uuid(), file_key: Joi.string(), content_type: Joi.string(), upload: link() }).id('CanvasImageUpload');
export const IMAGE: JoiObjectSchema = recordSchema({ image_id: field.uuid(), file_key: Joi.string(), content_type: Joi.string(), size_bytes: Joi.number().integer(), download: link() }).id('CanvasImage');

export const COMMENT: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  board_id: field.uuid(),
  object_id: Joi.string(),
  body: Joi.string(),
  author_id: field.uuid(),
  author_mrn: field.memberMrn(),
  edited_at: field.optionalInstant(),
  resolved: Joi.boolean(),
  resolved_at: field.optionalInstant(),
  resolved_by: field.uuid().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('CanvasComment');

const tally = () => Joi.array().items(Joi.object({ object_id: Joi.string(), votes: Joi.number().integer() }));

export const SESSION: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  board_id: field.uuid(),
  title: Joi.string().allow(''),
  votes_per_member: Joi.number().integer(),
  allow_multiple: Joi.boolean(),
  status: Joi.string().valid(...SESSION_STATUSES),
  started_by: field.uuid(),
  closed_at: field.optionalInstant(),
  closed_by: field.uuid().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
  my_votes: tally().description("The caller's votes, by object"),
  votes_left: Joi.number().integer(),
  results: tally().allow(null).description('Totals by object, most votes first; null while the session is open'),
  total_votes: Joi.number().integer().allow(null),
  voter_count: Joi.number().integer().allow(null),
}).id('CanvasVoteSession');

const EXPORT_FIELDS = {
  board_id: field.uuid(),
  target: Joi.string().valid(...EXPORT_TARGETS),
  content_type: Joi.string(),
  size_bytes: Joi.number().integer(),
  object_count: Joi.number().integer(),
  created_by: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
};
export const EXPORT: JoiObjectSchema = recordSchema(EXPORT_FIELDS).id('CanvasExport');
export const EXPORT_WITH_LINK: JoiObjectSchema = recordSchema({ ...EXPORT_FIELDS, download: link() }).id('CanvasExportWithLink');

export const DELETED: JoiObjectSchema = recordSchema({ id: Joi.string(), deleted: Joi.boolean() }).id('CanvasDeleted');
export const DELETED_EXPORT: JoiObjectSchema = recordSchema({ board_id: field.uuid(), target: Joi.string().valid(...EXPORT_TARGETS), deleted: Joi.boolean() }).id('CanvasDeletedExport');
