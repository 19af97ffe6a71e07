import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** An envelope's life: draft → sent → completed | declined | voided | expired. */
export const ENVELOPE_STATUSES = ['draft', 'sent', 'completed', 'declined', 'voided', 'expired'] as const;
export type EnvelopeStatus = (typeof ENVELOPE_STATUSES)[number];

/** A recipient's life: pending → notified → viewed → signed | declined. */
export const RECIPIENT_STATUSES = ['pending', 'notified', 'viewed', 'signed', 'declined'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/** What a recipient does: signs (fields), approves (no fields), or gets a copy of the final file. */
export const ROLES = ['signer', 'approver', 'copy'] as const;
export type Role = (typeof ROLES)[number];

/** The kinds of field placed on a page. */
export const FIELD_TYPES = ['signature', 'initials', 'date', 'text', 'checkbox'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** How a signer made their mark. */
export const MARK_KINDS = ['draw', 'type', 'upload'] as const;

/**
 * A field on a page: `x`, `y`, `width`, `height` are fractions of the page (0..1) from its top-left
 * corner, so they do not depend on the page's size in points.
 */
export interface Field {
  id: string;
  type: FieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  label: string | null;
  /** A template's merge field: the text is filled from the envelope's merge values. */
  merge_key: string | null;
  /** A merged or pre-filled value, or what the recipient entered. */
  value: string | boolean | null;
  required: boolean;
}

/** A template's field, for a role (the recipient the template names `role`). */
export interface TemplateField extends Omit<Field, 'value'> {
  role: string;
}

/** The mark a signer made (a drawn or uploaded image as a data URL, or typed text). */
export interface Mark {
  kind: (typeof MARK_KINDS)[number];
  text: string | null;
  image: string | null;
}

export const templates = defineModel('templates', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  description: column.string(2000).default(''),
  document_key: column.string(300),
  document_filename: column.string(255),
  document_sha256: column.string(64),
  page_count: column.integer(),
  /** The roles fields are placed for ("Client", "Manager"), in signing order. */
  roles: column.json<string[]>(),
  fields: column.json<TemplateField[]>(),
  created_by: column.uuid().nullable(),
});
export type Template = DeclaredRow<typeof templates>;

export const envelopes = defineModel('envelopes', {
  id: column.uuid().primaryKey().defaultRandom(),
  title: column.string(200),
  message: column.string(4000).default(''),
  status: column.enum(ENVELOPE_STATUSES, 20),
  /** What the envelope is for: another app's record, or the envelope's own MRN. */
  source_mrn: column.string(300),
  owner_id: column.uuid(),
  template_id: column.uuid().nullable(),
  merge_values: column.json<Record<string, string>>(),
  document_key: column.string(300),
  document_filename: column.string(255),
  original_sha256: column.string(64),
  page_count: column.integer(),
  final_key: column.string(300).nullable(),
  final_sha256: column.string(64).nullable(),
  /** The group whose recipients may act now (null before sending and after the end). */
  current_group: column.integer().nullable(),
  expires_at: column.date().nullable(),
  reminder_days: column.integer().nullable(),
  sent_at: column.date().nullable(),
  completed_at: column.date().nullable(),
  reason: column.string(1000).nullable(),
  /** The delivery that made the draft (a `*.signature_requested` event): unique, so a redelivery makes nothing. */
  delivery_key: column.string(300).nullable(),
  revision: column.integer().default(1),
});
export type Envelope = DeclaredRow<typeof envelopes>;

export const recipients = defineModel('recipients', {
  id: column.uuid().primaryKey().defaultRandom(),
  envelope_id: column.uuid(),
  name: column.string(200),
  email: column.string(254),
  /** An internal signer: only this member, signed in, signs. Null: an external signer (link and e-mail code). */
  member_id: column.uuid().nullable(),
  role: column.enum(ROLES, 20),
  group_no: column.integer(),
  position: column.integer(),
  status: column.enum(RECIPIENT_STATUSES, 20),
  fields: column.json<Field[]>(),
  /** An external signer's link token, sealed (the sender may copy the link); its hash finds it. */
  token_sealed: column.text().nullable(),
  token_hash: column.string(64).nullable(),
  code_hash: column.string(64).nullable(),
  code_expires_at: column.date().nullable(),
  code_attempts: column.integer().default(0),
  mark: column.json<Mark>().nullable(),
  signed_at: column.date().nullable(),
  reason: column.string(1000).nullable(),
});
export type Recipient = DeclaredRow<typeof recipients>;

/** Every step of an envelope, with who, when, from which address and user agent. */
export const auditEvents = defineModel('audit_events', {
  id: column.uuid().primaryKey().defaultRandom(),
  envelope_id: column.uuid(),
  recipient_id: column.uuid().nullable(),
  action: column.string(40),
  actor: column.string(300),
  ip: column.string(100).nullable(),
  user_agent: column.string(500).nullable(),
  details: column.json<Record<string, unknown>>(),
  at: column.date(),
}, { timestamps: false });
export type AuditEvent = DeclaredRow<typeof auditEvents>;

/** The workspace's signing identity: its certificate, and its private key sealed by the platform's secret key. */
export const identities = defineModel('identities', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(40),
  certificate_pem: column.text(),
  key_sealed: column.text(),
});
export type Identity = DeclaredRow<typeof identities>;

export const models = { templates, envelopes, recipients, auditEvents, identities };
export type Models = typeof models;
