import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { PRINCIPAL_TYPES, SHARE_LEVELS, SUGGESTION_STATUSES, VERSION_KINDS } from '../models/index.js';
import { LEVELS } from '../services/access.js';

/** The records the app answers with (services/present.ts builds them), declared on the routes. */
const instantOrNull = () => field.instant().allow(null);
const uuidOrNull = () => field.uuid().allow(null);

export const FOLDER: JoiObjectSchema = recordSchema({ id: field.uuid(), name: Joi.string(), parent_id: uuidOrNull(), owner_id: field.uuid(), created_at: field.instant(), updated_at: field.instant() }).id('PapersFolder');

const paperKeys = {
  id: field.uuid(),
  title: Joi.string(),
  folder_id: uuidOrNull(),
  owner_id: field.uuid(),
  owner_mrn: field.memberMrn(),
  status: Joi.string().valid('active', 'trashed'),
  template: Joi.boolean().description('A template: listed by GET /papers/templates; POST /papers with template_id copies it, its merge fields filled'),
  level: Joi.string().valid(...LEVELS).description("The caller's level on the paper"),
  trashed_at: instantOrNull(),
  edited_at: instantOrNull(),
  edited_by: uuidOrNull(),
  created_at: field.instant(),
  updated_at: field.instant(),
};
export const PAPER: JoiObjectSchema = recordSchema(paperKeys).id('PapersPaper');
export const PAPER_WITH_CONTENT: JoiObjectSchema = recordSchema({
  ...paperKeys,
  content: Joi.object().unknown(true).description('The stable JSON snapshot: ProseMirror JSON of the text'),
  text: Joi.string().allow('').description('Its plain text'),
}).id('PapersPaperWithContent');

export const DELETED: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean() }).id('PapersDeleted');

export const DOCUMENT: JoiObjectSchema = recordSchema({
  paper_id: field.uuid(),
  level: Joi.string().valid(...LEVELS),
  update: Joi.string().allow('').description('The whole document as one Yjs update, base64'),
  content: Joi.object().unknown(true).allow(null),
  text: Joi.string().allow(''),
}).id('PapersDocument');

export const APPLIED_UPDATE: JoiObjectSchema = recordSchema({
  paper_id: field.uuid(),
  applied: Joi.boolean().description('False when the update brought nothing new'),
  text_length: Joi.number().integer(),
}).id('PapersAppliedUpdate');

const share = () => Joi.object({ principal_type: Joi.string().valid(...PRINCIPAL_TYPES).required(), principal_id: Joi.string().required(), level: Joi.string().valid(...SHARE_LEVELS).required() });
const link = () => recordSchema({ id: field.uuid(), paper_id: field.uuid(), level: Joi.string().valid(...SHARE_LEVELS), anonymous: Joi.boolean(), expires_at: instantOrNull(), created_by: field.uuid(), created_at: field.instant() });
export const SHARES: JoiObjectSchema = recordSchema({ paper_id: field.uuid(), shares: Joi.array().items(share()), links: Joi.array().items(link()) }).id('PapersShares');
export const LINK: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  paper_id: field.uuid(),
  level: Joi.string().valid(...SHARE_LEVELS),
  anonymous: Joi.boolean().description('View only, opened without signing in at url'),
  expires_at: instantOrNull(),
  created_by: field.uuid(),
  created_at: field.instant(),
  token: Joi.string().description('The token, answered this once only'),
  url: Joi.string().description("An anonymous link's public page ({origin}/public/apps/papers/shared.html?token={token}, which reads GET /papers/shared/{token}), answered this once only"),
}, { optional: ['url'] }).id('PapersLink');

export const COMMENT: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  paper_id: field.uuid(),
  thread_id: field.uuid(),
  body: Joi.string(),
  anchor: Joi.object({ from: Joi.string(), to: Joi.string() }).allow(null),
  quote: Joi.string().allow(''),
  author_id: field.uuid(),
  author_mrn: field.memberMrn(),
  edited_at: instantOrNull(),
  resolved_at: instantOrNull(),
  resolved_by: uuidOrNull(),
  created_at: field.instant(),
}).id('PapersComment');

export const VERSION: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  paper_id: field.uuid(),
  kind: Joi.string().valid(...VERSION_KINDS),
  name: Joi.string().allow(null),
  created_by: uuidOrNull(),
  created_at: field.instant(),
}).id('PapersVersion');

export const DIFF: JoiObjectSchema = recordSchema({
  from: field.uuid(),
  to: Joi.string(),
  lines: Joi.array().items(Joi.object({ op: Joi.string().valid('equal', 'insert', 'delete'), text: Joi.string().allow('') })),
  inserted: Joi.number().integer(),
  deleted: Joi.number().integer(),
}).id('PapersDiff');

export const SUGGESTION: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  paper_id: field.uuid(),
  update: Joi.string().description('The suggested change: a Yjs update (base64) made on a fork of the document'),
  note: Joi.string().allow(''),
  text: Joi.string().allow('').description('The text the paper would have with it, when it was made'),
  status: Joi.string().valid(...SUGGESTION_STATUSES),
  author_id: field.uuid(),
  author_mrn: field.memberMrn(),
  decided_by: uuidOrNull(),
  decided_at: instantOrNull(),
  created_at: field.instant(),
}).id('PapersSuggestion');

export const IMAGE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  paper_id: field.uuid(),
  src: Joi.string().description("What an image node's src names: /papers/{paper_id}/images/{id}"),
  content_type: Joi.string().valid('image/png', 'image/jpeg', 'image/gif', 'image/webp'),
  size_bytes: Joi.number().integer(),
  created_by: field.uuid(),
  created_at: field.instant(),
}).id('PapersImage');

export const TEMPLATE: JoiObjectSchema = recordSchema({
  ...paperKeys,
  fields: Joi.array()
    .items(Joi.object({ name: Joi.string(), required: Joi.boolean() }))
    .description('Its merge fields: {{name}} (required) or {{name?}} (optional) in its text, in the order they first appear'),
}).id('PapersTemplate');

export const SIGNATURE_REQUEST: JoiObjectSchema = recordSchema({
  paper_id: field.uuid(),
  source_mrn: Joi.string().description('mrn:papers:paper:{paper_id}: the envelope Sign makes names it'),
  title: Joi.string(),
  signers: Joi.array().items(
    recordSchema({ name: Joi.string(), email: Joi.string(), member_id: field.uuid(), role: Joi.string().valid('signer', 'approver', 'copy'), group: Joi.number().integer() }, { optional: ['member_id'] }).id('PapersSigner'),
  ),
  filename: Joi.string(),
  sha256: Joi.string().description('The SHA-256 (hex) of the PDF the event carries'),
  size_bytes: Joi.number().integer(),
  requested_at: field.instant(),
}).id('PapersSignatureRequest');

export const DEPARTMENT: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  parent_id: uuidOrNull().description('The department above it, or null'),
}).id('PapersDepartment');

export const IMPORT_UPLOAD: JoiObjectSchema = recordSchema({
  file_key: Joi.string().description('What POST /papers/imports takes as file_key once the bytes are in'),
  max_bytes: Joi.number().integer(),
  upload: recordSchema({ url: Joi.string(), method: Joi.string().valid('PUT'), expires_at: field.instant() }).id('PapersImportUploadLink'),
}).id('PapersImportUpload');

export const SHARED_PAPER: JoiObjectSchema = recordSchema({
  title: Joi.string(),
  html: Joi.string().allow('').description('The content as HTML: every text escaped, only safe links, images inlined as data URLs'),
  content: Joi.object().unknown(true).description('The content as ProseMirror JSON, images inlined as data URLs'),
  expires_at: instantOrNull().description("When the link stops working"),
}).id('PapersSharedPaper');
