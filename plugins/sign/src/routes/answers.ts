import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { ENVELOPE_STATUSES, FIELD_TYPES, RECIPIENT_STATUSES, ROLES } from '../models/index.js';

const sha = () => Joi.string().pattern(/^[0-9a-f]{64}$/);
const FIELD_KEYS = {
  id: field.uuid(),
  type: field.oneOf(FIELD_TYPES),
  page: Joi.number().integer().min(1),
  x: Joi.number().description('From the left edge, a fraction of the page width'),
  y: Joi.number().description('From the top edge, a fraction of the page height'),
  width: Joi.number(),
  height: Joi.number(),
  label: Joi.string().allow(null),
  merge_key: Joi.string().allow(null),
  required: Joi.boolean(),
};
const FIELD = Joi.object({ ...FIELD_KEYS, value: Joi.any().description('A string, true or false, or null') });
const DOCUMENT = Joi.object({ filename: Joi.string(), sha256: sha(), pages: Joi.number().integer() });

export const TEMPLATE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  description: Joi.string().allow(''),
  document: DOCUMENT,
  roles: Joi.array().items(Joi.string()),
  fields: Joi.array().items(Joi.object({ ...FIELD_KEYS, role: Joi.string() })),
  merge_keys: Joi.array().items(Joi.string()),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('SignTemplate');

export const DELETED: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('SignDeleted');

export const ENVELOPE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  mrn: Joi.string(),
  title: Joi.string(),
  message: Joi.string().allow(''),
  status: field.oneOf(ENVELOPE_STATUSES),
  source_mrn: Joi.string().description('What the envelope is for: another app\'s record, or the envelope\'s own MRN'),
  owner_id: field.uuid(),
  template_id: field.uuid().allow(null),
  merge_values: Joi.object().unknown(true),
  document: DOCUMENT,
  final_sha256: sha().allow(null),
  final_storage_key: Joi.string().allow(null),
  current_group: Joi.number().integer().allow(null).description('The group whose recipients act now'),
  expires_at: field.instant().allow(null),
  reminder_days: Joi.number().integer().allow(null),
  sent_at: field.instant().allow(null),
  completed_at: field.instant().allow(null),
  reason: Joi.string().allow(null),
  recipients: Joi.array().items(Joi.object({
    id: field.uuid(),
    name: Joi.string(),
    email: Joi.string(),
    member_id: field.uuid().allow(null),
    role: field.oneOf(ROLES),
    group: Joi.number().integer(),
    status: field.oneOf(RECIPIENT_STATUSES),
    signed_at: field.instant().allow(null),
    reason: Joi.string().allow(null),
    fields: Joi.array().items(FIELD),
    signing_url: Joi.string().allow(null).description("An external recipient's link, shown to the sender once sent"),
  })),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('SignEnvelope');

export const AUDIT: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  envelope_id: field.uuid(),
  recipient_id: field.uuid().allow(null),
  action: Joi.string(),
  actor: Joi.string(),
  ip: Joi.string().allow(null),
  user_agent: Joi.string().allow(null),
  details: Joi.object().unknown(true),
  at: field.instant(),
}).id('SignAuditEvent');

export const VERIFICATION: JoiObjectSchema = recordSchema({
  verified: Joi.boolean(),
  sha256: sha(),
  envelope_id: field.uuid().allow(null),
  title: Joi.string().allow(null),
  source_mrn: Joi.string().allow(null),
  completed_at: field.instant().allow(null),
  original_sha256: sha().allow(null),
  message: Joi.string(),
}).id('SignVerification');

export const SIGNING_PAGE: JoiObjectSchema = recordSchema({
  envelope_id: field.uuid(),
  recipient_id: field.uuid(),
  title: Joi.string(),
  message: Joi.string().allow(''),
  sender: Joi.string(),
  name: Joi.string(),
  email: Joi.string(),
  role: field.oneOf(ROLES),
  pages: Joi.number().integer(),
  fields: Joi.array().items(FIELD),
  expires_at: field.instant().allow(null),
}).id('SignSigningPage');

export const CODE_SENT: JoiObjectSchema = recordSchema({ sent_to: Joi.string(), expires_at: field.instant() }).id('SignCodeSent');

export const SIGNED: JoiObjectSchema = recordSchema({ envelope_id: field.uuid(), status: field.oneOf(ENVELOPE_STATUSES), recipient_status: field.oneOf(RECIPIENT_STATUSES) }).id('SignSigned');

export const CERTIFICATE: JoiObjectSchema = recordSchema({
  source: Joi.string().valid('generated', 'uploaded').description('generated: the self-signed certificate the app made; uploaded: a PKCS#12 file an admin gave'),
  subject: Joi.string().description('The signer certificate\'s subject, as CN=..., O=...'),
  common_name: Joi.string().allow(null),
  issuer: Joi.string(),
  serial: Joi.string().description('Serial number, lower-case hex'),
  valid_from: field.instant(),
  valid_to: field.instant(),
  fingerprint_sha256: sha().description('SHA-256 of the signer certificate (DER), lower-case hex'),
  chain_length: Joi.number().integer().min(1).description('Certificates embedded in each signature: the signer\'s and the chain the file held'),
  stored_at: field.instant().description('When this certificate was made or uploaded'),
}).id('SignCertificate');
