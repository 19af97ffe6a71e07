import { Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';

/**
 * The records the app answers with (services/present.ts builds them), as the routes declare them
 * (`answers`): the OpenAPI document, the typed client and the harness's response checks use them.
 */

const uuid = () => Joi.string().guid();
const nullableUuid = () => Joi.string().guid().allow(null);
const instant = () => Joi.date().iso();
const nullableInstant = () => Joi.date().iso().allow(null);
const memberMrn = () => Joi.string().pattern(/^mrn:account:member:/);
const size = () => Joi.number().integer().min(0);

export const VERSION: JoiObjectSchema = recordSchema({
  id: uuid(),
  file_id: uuid(),
  number: Joi.number().integer().min(1),
  size_bytes: size(),
  content_type: Joi.string(),
  sha256: Joi.string().hex().length(64),
  current: Joi.boolean(),
  created_by: uuid(),
  created_at: instant(),
}).id('FilesVersion');

export const ITEM: JoiObjectSchema = recordSchema(
  {
    id: uuid(),
    kind: Joi.string().valid('file', 'folder'),
    name: Joi.string(),
    parent_id: nullableUuid(),
    owner_id: uuid(),
    owner_mrn: memberMrn(),
    size_bytes: size(),
    content_type: Joi.string().allow(null),
    type: Joi.string().description('`folder`, or the file category: image, video, audio, pdf, document, spreadsheet, presentation, archive, text, other'),
    version_id: nullableUuid(),
    version_number: Joi.number().integer().min(0).allow(null),
    trashed: Joi.boolean(),
    trashed_at: nullableInstant(),
    created_by: uuid(),
    updated_by: uuid(),
    created_at: instant(),
    updated_at: instant(),
    access: Joi.string().valid('owner', 'edit', 'read').description("The caller's access (on reads)"),
    created: Joi.boolean().description('On an upload completion: true for a new file, false for a new version'),
    version: VERSION,
  },
  { optional: ['access', 'created', 'version'] },
).id('FilesItem');

export const SHARE: JoiObjectSchema = recordSchema(
  { file_id: uuid(), member_id: uuid(), member_mrn: memberMrn(), role: Joi.string().valid('read', 'edit'), shared_by: uuid(), created_at: instant(), updated_at: instant(), created: Joi.boolean() },
  { optional: ['created'] },
).id('FilesShare');

export const SHARE_DELETED: JoiObjectSchema = recordSchema({ file_id: uuid(), member_id: uuid(), deleted: Joi.boolean().valid(true) }).id('FilesShareDeleted');

export const DOWNLOAD: JoiObjectSchema = recordSchema({
  file_id: uuid(),
  version_id: uuid(),
  name: Joi.string(),
  size_bytes: size(),
  content_type: Joi.string(),
  url: Joi.string().uri(),
  method: Joi.string().valid('GET'),
  expires_at: instant(),
}).id('FilesDownload');

export const UPLOAD: JoiObjectSchema = recordSchema({
  id: uuid(),
  name: Joi.string(),
  folder_id: nullableUuid(),
  file_id: nullableUuid(),
  size_bytes: size(),
  content_type: Joi.string().allow(null),
  upload_url: Joi.string().uri(),
  method: Joi.string().valid('PUT'),
  expires_at: instant(),
}).id('FilesUpload');

export const UPLOAD_DELETED: JoiObjectSchema = recordSchema({ id: uuid(), deleted: Joi.boolean().valid(true) }).id('FilesUploadDeleted');

export const PURGED: JoiObjectSchema = recordSchema({ id: uuid(), purged: Joi.boolean().valid(true), freed_bytes: size() }).id('FilesPurged');

const usage = (key: string) => recordSchema({ [key]: Joi.string(), ...(key === 'member_id' ? { member_mrn: memberMrn() } : {}), bytes: size(), versions: Joi.number().integer().min(0) });

export const STATS: JoiObjectSchema = recordSchema({
  plan: Joi.string().allow(null),
  quota_bytes: size(),
  used_bytes: size(),
  available_bytes: size(),
  max_file_bytes: size(),
  files: Joi.number().integer().min(0),
  folders: Joi.number().integer().min(0),
  trashed_items: Joi.number().integer().min(0),
  by_member: Joi.array().items(usage('member_id')),
  by_type: Joi.array().items(usage('type')),
}).id('FilesStats');

export const TRANSFER: JoiObjectSchema = recordSchema({
  transfer_id: nullableUuid().description('Null when there was nothing left to move (a retry)'),
  from_mrn: memberMrn(),
  to_mrn: memberMrn(),
  folders: Joi.number().integer().min(0),
  files: Joi.number().integer().min(0),
  renamed: Joi.array().items(recordSchema({ item_id: uuid(), from_name: Joi.string(), to_name: Joi.string() })),
}).id('FilesTransfer');
