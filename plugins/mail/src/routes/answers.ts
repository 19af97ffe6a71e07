import { field, Joi, recordSchema, type JoiObjectSchema, type JoiSchema } from '@wpk/sdk';

/**
 * The records the Mail app answers with (the services' `present*` functions build them), as the
 * routes declare them (`answers`): they go into the OpenAPI document and the typed client, and the
 * test harness checks every answer of the app's tests against them.
 */

const text = () => Joi.string().allow('');
const security = () => Joi.string().valid('tls', 'starttls', 'none');

const ATTACHMENT = recordSchema({
  id: field.uuid(),
  file_key: Joi.string().description("Where its bytes are in the app's storage (a draft is saved with it)"),
  filename: Joi.string(),
  content_type: Joi.string(),
  size_bytes: field.count(),
}).id('MailAttachment');

const attachments = () => Joi.array().items(ATTACHMENT).description('Its files (GET …/attachments/{attachment_id} answers a download link)');

/** A signed link to upload one file, and the key to attach it by. */
export const UPLOAD: JoiObjectSchema = recordSchema({
  file_key: Joi.string().description('Send it as `attachments[].file_key` of a message or a draft once the file is uploaded'),
  filename: Joi.string(),
  upload: recordSchema({ url: Joi.string().uri(), method: Joi.string().valid('PUT'), expires_at: field.instant() }),
}).id('MailUpload');

/** A signed link to download one file of a message. */
export const DOWNLOAD: JoiObjectSchema = recordSchema({ url: Joi.string().uri(), method: Joi.string().valid('GET'), expires_at: field.instant() }).id('MailDownload');

const ADDRESS = recordSchema({ address: Joi.string(), name: Joi.string() }, { optional: ['name'] }).id('MailAddress');
const addresses = () => Joi.array().items(ADDRESS);

const ACCOUNT_KEYS = {
  id: field.uuid(),
  address: Joi.string(),
  display_name: text(),
  signature_id: field.uuid().allow(null).description('The signature added to what the account sends unless a message names another'),
};

const HOSTED_ACCOUNT = recordSchema({ ...ACCOUNT_KEYS, kind: Joi.string().valid('hosted'), mailbox_id: field.uuid(), created_at: field.instant(), updated_at: field.instant() }).id('MailHostedAccount');

const SERVER = recordSchema({ host: Joi.string(), port: Joi.number().integer().min(1).max(65535), security: security(), username: Joi.string() });

const CONNECTED_ACCOUNT = recordSchema({
  ...ACCOUNT_KEYS,
  kind: Joi.string().valid('connected'),
  imap: SERVER,
  smtp: SERVER,
  sync_status: Joi.string().valid('pending', 'ok', 'error'),
  last_error: Joi.string().allow(null).description('Why the last sync failed (null: it did not)'),
  last_synced_at: field.instant().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('MailConnectedAccount');

/** An account of the caller: a hosted mailbox assigned to them, or an external mailbox they connected (never its passwords). */
export const ACCOUNT: JoiSchema = Joi.alternatives().try(HOSTED_ACCOUNT, CONNECTED_ACCOUNT).id('MailAccount');

/** A message of an account or of a group; `bcc` only on mail sent from here. */
export const MESSAGE: JoiObjectSchema = recordSchema(
  {
    id: field.uuid(),
    account_id: field.uuid().allow(null),
    group_id: field.uuid().allow(null),
    folder: Joi.string(),
    message_id_header: text(),
    in_reply_to: text(),
    from: recordSchema({ address: text(), name: text() }),
    to: addresses(),
    cc: addresses(),
    bcc: addresses(),
    subject: text(),
    text: text(),
    html: text(),
    attachments: attachments(),
    size_bytes: field.count(),
    dkim: Joi.string(),
    spf: Joi.string(),
    dmarc: Joi.string(),
    seen: Joi.boolean(),
    flagged: Joi.boolean(),
    delivery_status: Joi.string().valid('queued', 'sent', 'failed').allow(null).description('Mail sent from here: queued until the relay took it; null for mail received'),
    attempts: field.count(),
    last_error: Joi.string().allow(null),
    sent_at: field.instant().allow(null),
    received_at: field.instant(),
    updated_at: field.instant(),
  },
  { optional: ['bcc'] },
).id('MailMessage');

export const SIGNATURE: JoiObjectSchema = recordSchema({ id: field.uuid(), account_id: field.uuid(), name: Joi.string(), text: text(), html: text(), created_at: field.instant(), updated_at: field.instant() }).id('MailSignature');

const FILTER_CONDITION = recordSchema({ field: Joi.string().valid('from', 'to', 'subject', 'body'), operator: Joi.string().valid('contains', 'equals', 'ends_with'), value: Joi.string() }).id('MailFilterCondition');
const FILTER_ACTION = recordSchema({ type: Joi.string().valid('move', 'mark_seen', 'flag', 'discard'), folder: Joi.string() }, { optional: ['folder'] }).id('MailFilterAction');

export const FILTER: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  account_id: field.uuid(),
  name: Joi.string(),
  match: Joi.string().valid('all', 'any'),
  conditions: Joi.array().items(FILTER_CONDITION),
  actions: Joi.array().items(FILTER_ACTION),
  position: field.count().description('Filters run in this order'),
  created_at: field.instant(),
}).id('MailFilter');

export const BLOCKED_SENDER: JoiObjectSchema = recordSchema({ id: field.uuid(), account_id: field.uuid(), address: Joi.string().description('name@example.com, or @example.com for a whole domain'), created_at: field.instant() }).id('MailBlockedSender');

export const DRAFT: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  account_id: field.uuid(),
  to: addresses(),
  cc: addresses(),
  bcc: addresses(),
  subject: text(),
  text: text(),
  html: text(),
  attachments: attachments(),
  in_reply_to: text(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('MailDraft');

const DNS_RECORD = recordSchema({
  purpose: Joi.string().valid('ownership', 'mx', 'spf', 'dkim', 'dmarc'),
  type: Joi.string().valid('MX', 'TXT'),
  name: Joi.string(),
  value: Joi.string().description('What to publish'),
  status: Joi.string().valid('ok', 'missing', 'unanswered', 'unchecked').description('What the last check found (unanswered: the DNS gave no answer)'),
  found: Joi.array().items(Joi.string()).description('The values the last check found'),
}).id('MailDnsRecord');

export const DOMAIN: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  verified: Joi.boolean(),
  verified_at: field.instant().allow(null),
  checked_at: field.instant().allow(null),
  catch_all_mailbox_id: field.uuid().allow(null),
  dkim_selector: Joi.string(),
  dns_records: Joi.array().items(DNS_RECORD),
  created_by: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('MailDomain');

export const MAILBOX: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  domain_id: field.uuid(),
  local_part: Joi.string(),
  address: Joi.string(),
  display_name: text(),
  member_id: field.uuid().allow(null),
  signature_id: field.uuid().allow(null),
  created_by: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('MailMailbox');

const OUTBOX_KEY_KEYS = {
  id: field.uuid(),
  mailbox_id: field.uuid(),
  name: Joi.string(),
  prefix: Joi.string().description('The first characters of the secret, to tell keys apart'),
  status: Joi.string().valid('active', 'revoked'),
  revoked_at: field.instant().allow(null),
  last_used_at: field.instant().allow(null),
  created_by: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
};

/** An outbox key (never its secret). */
export const OUTBOX_KEY: JoiObjectSchema = recordSchema(OUTBOX_KEY_KEYS).id('MailOutboxKey');

/** An outbox key just made: with its secret, shown this once. */
export const NEW_OUTBOX_KEY: JoiObjectSchema = recordSchema({ ...OUTBOX_KEY_KEYS, secret: Joi.string().description('The SMTP password; shown this once') }).id('MailNewOutboxKey');

export const GROUP: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  domain_id: field.uuid(),
  local_part: Joi.string(),
  address: Joi.string(),
  name: Joi.string(),
  description: text(),
  who_can_post: Joi.string().valid('anyone', 'members'),
  created_by: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('MailGroup');

export const GROUP_MEMBER: JoiObjectSchema = recordSchema({
  group_id: field.uuid(),
  member_id: field.uuid(),
  tier: Joi.string().valid('owner', 'manager', 'member'),
  added_by: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('MailGroupMember');

/** The answer to a DELETE: the id of what went. */
export const DELETED: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('MailDeleted');
