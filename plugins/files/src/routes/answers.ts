import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';

/**
 * The records the app answers with (services/present.ts builds them), as the routes declare them
 * (`answers`): the OpenAPI document, the typed client and the harness's response checks use them.
 */


export const VERSION: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  file_id: field.uuid(),
  number: Joi.number().integer().min(1),
  size_bytes: field.count(),
  content_type: Joi.string(),
  sha256: Joi.string().hex().length(64),
  current: Joi.boolean(),
  created_by: field.uuid(),
  created_at: field.instant(),
}).id('FilesVersion');

export const ITEM: JoiObjectSchema = recordSchema(
  {
    id: field.uuid(),
    kind: Joi.string().valid('file', 'folder'),
    name: Joi.string(),
    parent_id: field.uuid().allow(null),
    owner_id: field.uuid(),
    owner_mrn: field.memberMrn(),
    size_bytes: field.count(),
    content_type: Joi.string().allow(null),
    type: Joi.string().description('`folder`, or the file category: image, video, audio, pdf, document, spreadsheet, presentation, archive, text, other'),
    version_id: field.uuid().allow(null),
    version_number: Joi.number().integer().min(0).allow(null),
    trashed: Joi.boolean(),
    trashed_at: field.optionalInstant(),
    created_by: field.uuid(),
    updated_by: field.uuid(),
    created_at: field.instant(),
    updated_at: field.instant(),
    access: Joi.string().valid('owner', 'edit', 'read').description("The caller's access (on reads)"),
    created: Joi.boolean().description('On an upload completion: true for a new file, false for a new version'),
    version: VERSION,
  },
  { optional: ['access', 'created', 'version'] },
).id('FilesItem');

export const SHARE: JoiObjectSchema = recordSchema(
  { file_id: field.uuid(), member_id: field.uuid(), member_mrn: field.memberMrn(), role: Joi.string().valid('read', 'edit'), shared_by: field.uuid(), created_at: field.instant(), updated_at: field.instant(), created: Joi.boolean() },
  { optional: ['created'] },
).id('FilesShare');

export const SHARE_DELETED: JoiObjectSchema = recordSchema({ file_id: field.uuid(), member_id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('FilesShareDeleted');

export const DOWNLOAD: JoiObjectSchema = recordSchema({
  file_id: field.uuid(),
  version_id: field.uuid(),
  name: Joi.string(),
  size_bytes: field.count(),
  content_type: Joi.string(),
  url: Joi.string().uri(),
  method: Joi.string().valid('GET'),
  expires_at: field.instant(),
}).id('FilesDownload');

export const UPLOAD: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  folder_id: field.uuid().allow(null),
  file_id: field.uuid().allow(null),
  size_bytes: field.count(),
  content_type: Joi.string().allow(null),
  upload_url: Joi.string().uri(),
  method: Joi.string().valid('PUT'),
  expires_at: field.instant(),
}).id('FilesUpload');

export const UPLOAD_DELETED: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('FilesUploadDeleted');

export const PURGED: JoiObjectSchema = recordSchema({ id: field.uuid(), purged: Joi.boolean().valid(true), freed_bytes: field.count() }).id('FilesPurged');

const usage = (key: string) => recordSchema({ [key]: Joi.string(), ...(key === 'member_id' ? { member_mrn: field.memberMrn() } : {}), bytes: field.count(), versions: Joi.number().integer().min(0) });

export const STATS: JoiObjectSchema = recordSchema({
  plan: Joi.string().allow(null),
  quota_bytes: field.count(),
  used_bytes: field.count(),
  available_bytes: field.count(),
  max_file_bytes: field.count(),
  files: Joi.number().integer().min(0),
  folders: Joi.number().integer().min(0),
  trashed_items: Joi.number().integer().min(0),
  by_member: Joi.array().items(usage('member_id')),
  by_type: Joi.array().items(usage('type')),
}).id('FilesStats');

export const TRANSFER: JoiObjectSchema = recordSchema({
  transfer_id: field.uuid().allow(null).description('Null when there was nothing left to move (a retry)'),
  from_mrn: field.memberMrn(),
  to_mrn: field.memberMrn(),
  folders: Joi.number().integer().min(0),
  files: Joi.number().integer().min(0),
  renamed: Joi.array().items(recordSchema({ item_id: field.uuid(), from_name: Joi.string(), to_name: Joi.string() })),
}).id('FilesTransfer');
