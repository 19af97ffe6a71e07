import { field, Joi, recordSchema, type JoiArraySchema, type JoiObjectSchema } from '@wpk/sdk';
import { FIELD_TYPES, VIEW_TYPES } from '../models/index.js';

const ACCESS = ['none', 'viewer', 'editor', 'creator'] as const;

/** A base, with the caller's role on it. */
export const BASE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  default_role: field.oneOf(ACCESS).description('The role of every member with no role of their own on the base'),
  role: field.oneOf(ACCESS).description("The caller's role"),
  created_by: field.uuid(),
  revision: Joi.number().integer().min(1),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('TablesBase');

/** A table of a base. */
export const TABLE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  base_id: field.uuid(),
  name: Joi.string(),
  primary_field_id: field.uuid().allow(null).description("The field whose value is a record's title"),
  revision: Joi.number().integer().min(1),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('TablesTable');

/** A field of a table. */
export const FIELD: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  table_id: field.uuid(),
  name: Joi.string(),
  type: field.oneOf(FIELD_TYPES),
  options: Joi.object().unknown(true).description('By type: choices, decimals and symbol, table_id (link), link_field_id and field_id (lookup, rollup), function (rollup), expression and references (formula)'),
  position: Joi.number().integer(),
  revision: Joi.number().integer().min(1),
  conversion: Joi.object({
    converted: Joi.number().integer().min(0),
    failed: Joi.array().items(Joi.object({ record_id: field.uuid(), value: Joi.any() })),
  }).allow(null).description('After a type change: the cells converted, and those that could not be (cleared)'),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('TablesField');

/** A record: cells and their versions by field id. */
export const RECORD: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  table_id: field.uuid(),
  number: Joi.number().integer().min(1),
  title: Joi.string().allow(''),
  cells: Joi.object().unknown(true).description('Values by field id'),
  versions: Joi.object().unknown(true).description("Each cell's version by field id: a write names the version it read"),
  revision: Joi.number().integer().min(1),
  created_by: field.uuid().allow(null),
  updated_by: field.uuid().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('TablesRecord');

/**
 * `POST` and `PATCH /tables/tables/{table_id}/records/bulk`: every record written, in the order of
 * the request (up to 1,000). A single answer, not a page: a page's per_page is at most 100.
 */
export const BULK_RECORDS: JoiArraySchema = Joi.array().items(RECORD).max(1000).description('The records written, in the order of the request');

/** A group of a grouped listing. */
export const GROUP: JoiArraySchema = Joi.array().items(Joi.object({ value: Joi.any(), count: Joi.number().integer().min(1) })).description('The groups of group_by among every record the filters keep (not only this page), in group order, with their sizes (empty without a group)');

/** A view. */
export const VIEW: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  table_id: field.uuid(),
  name: Joi.string(),
  type: field.oneOf(VIEW_TYPES),
  personal: Joi.boolean(),
  owner_id: field.uuid().allow(null),
  config: Joi.object().unknown(true).description('filters, sorts, group_by, hidden_fields, kanban_field_id, date_field_id, cover_field_id, form_fields'),
  revision: Joi.number().integer().min(1),
  created_by: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('TablesView');

/** A comment on a record. */
export const COMMENT: JoiObjectSchema = recordSchema({ id: field.uuid(), record_id: field.uuid(), body: Joi.string(), author_id: field.uuid(), created_at: field.instant() }).id('TablesComment');

/** One change of a record. */
export const HISTORY: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  record_id: field.uuid(),
  kind: field.oneOf(['created', 'updated']),
  changes: Joi.object().unknown(true).description('By field id: { from, to }'),
  actor_id: field.uuid().allow(null),
  created_at: field.instant(),
}).id('TablesHistoryEntry');

/** A deletion. */
export const DELETED: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('TablesDeleted');

/** A member's own role on a base. */
export const BASE_ROLE: JoiObjectSchema = recordSchema({ base_id: field.uuid(), member_id: field.uuid(), role: field.oneOf(['viewer', 'editor', 'creator']), created_at: field.instant(), updated_at: field.instant() }).id('TablesBaseRole');

/** `DELETE /tables/bases/{base_id}/roles/{member_id}`. */
export const DELETED_ROLE: JoiObjectSchema = recordSchema({ base_id: field.uuid(), member_id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('TablesDeletedBaseRole');

/** `POST /tables/tables/{table_id}/import`: what the file held, and its bad cells by line and column. */
export const IMPORT_REPORT: JoiObjectSchema = recordSchema({
  dry_run: Joi.boolean(),
  rows: Joi.number().integer().min(0).description('Rows below the header'),
  created: Joi.number().integer().min(0).description('Records added (0 on a dry run)'),
  ignored_columns: Joi.array().items(Joi.string()).description('Columns of computed or attachment fields, not imported'),
  errors: Joi.array().items(Joi.object({ line: Joi.number().integer().min(1), column: Joi.number().integer().min(1), field: Joi.string(), value: Joi.string().allow(''), error: Joi.string() })),
}).id('TablesImportReport');

/** `POST /tables/views/{view_id}/form-link`: the public link, shown once. */
export const FORM_LINK: JoiObjectSchema = recordSchema({
  view_id: field.uuid(),
  token: Joi.string(),
  path: Joi.string().description('The public form page, token in its fragment: /public/apps/tables/form.html#{token}'),
  url: Joi.string().description("The page's address to hand out, on the workspace's public origin (from the configuration, never the request's Host)"),
  api_path: Joi.string().description('The API route the page calls: /tables/forms/{token}'),
}).id('TablesFormLink');

/** A public form. */
export const FORM: JoiObjectSchema = recordSchema({
  title: Joi.string(),
  fields: Joi.array().items(Joi.object({ id: field.uuid(), name: Joi.string(), type: field.oneOf(FIELD_TYPES), choices: Joi.array().items(Joi.string()) })),
}).id('TablesForm');

/** A public form's submission. */
export const SUBMISSION: JoiObjectSchema = recordSchema({ record_id: field.uuid(), submitted: Joi.boolean().valid(true) }).id('TablesFormSubmission');

/** `POST /tables/tables/{table_id}/attachment-uploads`: where to PUT the file, and the key to put in a cell. */
export const ATTACHMENT_UPLOAD: JoiObjectSchema = recordSchema({
  key: Joi.string(),
  filename: Joi.string(),
  content_type: Joi.string(),
  upload: Joi.object({ url: Joi.string(), method: Joi.string(), expires_at: Joi.string() }),
}).id('TablesAttachmentUpload');

/** `GET /tables/records/{record_id}/attachment-link`: a download link for one file. */
export const ATTACHMENT_LINK: JoiObjectSchema = recordSchema({ key: Joi.string(), name: Joi.string(), url: Joi.string(), expires_at: Joi.string() }).id('TablesAttachmentLink');
