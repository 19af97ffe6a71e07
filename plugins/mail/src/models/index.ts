import { DataTypes, defineModel } from '@wpk/sdk';

const id = () => ({ type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 });
const text = (max?: number) => ({ type: max ? DataTypes.STRING(max) : DataTypes.TEXT, allowNull: false, defaultValue: '' });
const list = () => ({ type: DataTypes.JSONB, allowNull: false, defaultValue: [] });

/** One result of a DNS check: what was expected, what was found, whether it matches. */
export interface RecordCheck {
  ok: boolean;
  found: string[];
  /** The DNS gave no answer (timeout, refusal, server failure): nothing is known either way. */
  unanswered?: boolean;
}

/** A hosted domain; its DKIM private key is sealed with `ctx.secrets`. */
export interface Domain {
  id: string;
  name: string;
  dkim_selector: string;
  dkim_public_key: string;
  dkim_private_key: string;
  /** This workspace's token for the domain, published in its ownership record to prove control. */
  verification_token: string;
  catch_all_mailbox_id: string | null;
  verified_at: Date | null;
  checked_at: Date | null;
  checks: Record<string, RecordCheck>;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** A hosted mailbox (and its member's account). */
export interface Mailbox {
  id: string;
  domain_id: string;
  local_part: string;
  address: string;
  display_name: string;
  member_id: string | null;
  signature_id: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** A group (distribution list) on a hosted domain. */
export interface Group {
  id: string;
  domain_id: string;
  local_part: string;
  address: string;
  name: string;
  description: string;
  who_can_post: 'anyone' | 'members';
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** Tiers of a group member, highest first. */
export type Tier = 'owner' | 'manager' | 'member';

/** A member of a group. */
export interface GroupMember {
  group_id: string;
  member_id: string;
  tier: Tier;
  added_by: string;
  created_at: Date;
  updated_at: Date;
}

/** An address with an optional name. */
export interface Address {
  address: string;
  name?: string;
}

/** A message of an account (account_id) or of a group (group_id). */
export interface Message {
  id: string;
  account_id: string | null;
  group_id: string | null;
  folder: string;
  message_id_header: string;
  in_reply_to: string;
  from_address: string;
  from_name: string;
  to_addresses: Address[];
  cc_addresses: Address[];
  bcc_addresses: Address[];
  subject: string;
  text_body: string;
  html_body: string;
  /** Outgoing mail: queued until the relay took it, then sent (or failed after the last attempt). */
  delivery_status: 'queued' | 'sent' | 'failed' | null;
  attempts: number;
  next_attempt_at: Date | null;
  last_error: string;
  sent_by: string | null;
  size_bytes: number;
  dkim: string;
  seen: boolean;
  flagged: boolean;
  sent_at: Date | null;
  received_at: Date;
  /** A connected account's message: its folder on the server and UID there (null for hosted mail). */
  remote_path: string | null;
  remote_uid: number | string | null; // BIGINT: read with Number()
  /** Its seen/flagged changed here and the server has yet to learn it. */
  flags_dirty: boolean;
  /** SPF and DMARC verdicts on arrival through the listener (`none` when not evaluated). */
  spf: string;
  dmarc: string;
  created_at: Date;
  updated_at: Date;
}

/** How a connection to a server is secured: implicit TLS, STARTTLS, or none (loopback and tests). */
export type Security = 'tls' | 'starttls' | 'none';

/** A member's external mailbox: IMAP to read, SMTP to send; the passwords sealed in `credentials`. */
export interface ConnectedAccount {
  id: string;
  member_id: string;
  address: string;
  display_name: string;
  signature_id: string | null;
  imap_host: string;
  imap_port: number;
  imap_security: Security;
  imap_username: string;
  smtp_host: string;
  smtp_port: number;
  smtp_security: Security;
  smtp_username: string;
  /** `ctx.secrets.seal(JSON.stringify({ imap, smtp }))`: the two passwords. */
  credentials: string;
  sync_status: 'pending' | 'ok' | 'error';
  last_error: string;
  last_synced_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Where the sync of one folder of a connected account stands. */
export interface AccountFolder {
  account_id: string;
  folder: string;
  remote_path: string;
  uid_validity: string;
  uid_next: number | string; // BIGINT: read with Number()
  highest_modseq: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A move made here (to the trash, or another folder) that the server has yet to see. */
export interface RemoteOperation {
  id: string;
  account_id: string;
  /** The local message that moved (null when it was deleted here: only the server's copy moves). */
  message_id: string | null;
  remote_path: string;
  uid_validity: string;
  remote_uid: number | string; // BIGINT: read with Number()
  target_folder: string;
  created_at: Date;
  updated_at: Date;
}

/** A draft of an account. */
export interface Draft {
  id: string;
  account_id: string;
  to_addresses: Address[];
  cc_addresses: Address[];
  bcc_addresses: Address[];
  subject: string;
  text_body: string;
  html_body: string;
  in_reply_to: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** A signature of an account. */
export interface Signature {
  id: string;
  account_id: string;
  name: string;
  text_body: string;
  html_body: string;
  created_at: Date;
  updated_at: Date;
}

/** One condition of a filter. */
export interface FilterCondition {
  field: 'from' | 'to' | 'subject' | 'body';
  operator: 'contains' | 'equals' | 'ends_with';
  value: string;
}

/** One action of a filter. */
export interface FilterAction {
  type: 'move' | 'mark_seen' | 'flag' | 'discard';
  folder?: string;
}

/** A filter of an account: conditions (all or any) → actions, applied to incoming mail in position order. */
export interface Filter {
  id: string;
  account_id: string;
  name: string;
  match: 'all' | 'any';
  conditions: FilterCondition[];
  actions: FilterAction[];
  position: number;
  created_at: Date;
  updated_at: Date;
}

/** An address or `@domain` whose mail the account refuses. */
export interface BlockedSender {
  id: string;
  account_id: string;
  address: string;
  created_at: Date;
  updated_at: Date;
}

/** An SMTP submission credential of a mailbox; only the hash of its secret is kept. */
export interface OutboxKey {
  id: string;
  mailbox_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** The app's models, by their name in `ctx.db`. */
export const models = {
  domains: defineModel<Domain>('domains', {
    id: id(),
    name: { type: DataTypes.STRING(253), allowNull: false },
    dkim_selector: { type: DataTypes.STRING(63), allowNull: false },
    dkim_public_key: { type: DataTypes.TEXT, allowNull: false },
    dkim_private_key: { type: DataTypes.TEXT, allowNull: false },
    verification_token: { type: DataTypes.STRING(64), allowNull: false },
    catch_all_mailbox_id: { type: DataTypes.UUID, allowNull: true },
    verified_at: { type: DataTypes.DATE, allowNull: true },
    checked_at: { type: DataTypes.DATE, allowNull: true },
    checks: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
    created_by: { type: DataTypes.UUID, allowNull: false },
  }),
  mailboxes: defineModel<Mailbox>('mailboxes', {
    id: id(),
    domain_id: { type: DataTypes.UUID, allowNull: false },
    local_part: { type: DataTypes.STRING(64), allowNull: false },
    address: { type: DataTypes.STRING(320), allowNull: false },
    display_name: text(200),
    member_id: { type: DataTypes.UUID, allowNull: true },
    signature_id: { type: DataTypes.UUID, allowNull: true },
    created_by: { type: DataTypes.UUID, allowNull: false },
  }),
  groups: defineModel<Group>('groups', {
    id: id(),
    domain_id: { type: DataTypes.UUID, allowNull: false },
    local_part: { type: DataTypes.STRING(64), allowNull: false },
    address: { type: DataTypes.STRING(320), allowNull: false },
    name: { type: DataTypes.STRING(200), allowNull: false },
    description: text(2000),
    who_can_post: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'anyone' },
    created_by: { type: DataTypes.UUID, allowNull: false },
  }),
  groupMembers: defineModel<GroupMember>('group_members', {
    group_id: { type: DataTypes.UUID, primaryKey: true },
    member_id: { type: DataTypes.UUID, primaryKey: true },
    tier: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'member' },
    added_by: { type: DataTypes.UUID, allowNull: false },
  }),
  messages: defineModel<Message>('messages', {
    id: id(),
    account_id: { type: DataTypes.UUID, allowNull: true },
    group_id: { type: DataTypes.UUID, allowNull: true },
    folder: { type: DataTypes.STRING(40), allowNull: false, defaultValue: 'inbox' },
    message_id_header: text(998),
    in_reply_to: text(998),
    from_address: text(320),
    from_name: text(200),
    to_addresses: list(),
    cc_addresses: list(),
    bcc_addresses: list(),
    subject: text(998),
    text_body: text(),
    html_body: text(),
    delivery_status: { type: DataTypes.STRING(10), allowNull: true },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    next_attempt_at: { type: DataTypes.DATE, allowNull: true },
    last_error: text(500),
    sent_by: { type: DataTypes.UUID, allowNull: true },
    size_bytes: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    dkim: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'none' },
    seen: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    flagged: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    sent_at: { type: DataTypes.DATE, allowNull: true },
    received_at: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
    remote_path: { type: DataTypes.STRING(500), allowNull: true },
    remote_uid: { type: DataTypes.BIGINT, allowNull: true },
    flags_dirty: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    spf: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'none' },
    dmarc: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'none' },
  }),
  connectedAccounts: defineModel<ConnectedAccount>('connected_accounts', {
    id: id(),
    member_id: { type: DataTypes.UUID, allowNull: false },
    address: { type: DataTypes.STRING(320), allowNull: false },
    display_name: text(200),
    signature_id: { type: DataTypes.UUID, allowNull: true },
    imap_host: { type: DataTypes.STRING(253), allowNull: false },
    imap_port: { type: DataTypes.INTEGER, allowNull: false },
    imap_security: { type: DataTypes.STRING(10), allowNull: false },
    imap_username: { type: DataTypes.STRING(320), allowNull: false },
    smtp_host: { type: DataTypes.STRING(253), allowNull: false },
    smtp_port: { type: DataTypes.INTEGER, allowNull: false },
    smtp_security: { type: DataTypes.STRING(10), allowNull: false },
    smtp_username: { type: DataTypes.STRING(320), allowNull: false },
    credentials: { type: DataTypes.TEXT, allowNull: false },
    sync_status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'pending' },
    last_error: text(500),
    last_synced_at: { type: DataTypes.DATE, allowNull: true },
  }),
  accountFolders: defineModel<AccountFolder>('account_folders', {
    account_id: { type: DataTypes.UUID, primaryKey: true },
    folder: { type: DataTypes.STRING(40), primaryKey: true },
    remote_path: { type: DataTypes.STRING(500), allowNull: false },
    uid_validity: { type: DataTypes.STRING(20), allowNull: false },
    uid_next: { type: DataTypes.BIGINT, allowNull: false },
    highest_modseq: { type: DataTypes.STRING(20), allowNull: true },
  }),
  remoteOperations: defineModel<RemoteOperation>('remote_operations', {
    id: id(),
    account_id: { type: DataTypes.UUID, allowNull: false },
    message_id: { type: DataTypes.UUID, allowNull: true },
    remote_path: { type: DataTypes.STRING(500), allowNull: false },
    uid_validity: { type: DataTypes.STRING(20), allowNull: false },
    remote_uid: { type: DataTypes.BIGINT, allowNull: false },
    target_folder: { type: DataTypes.STRING(40), allowNull: false },
  }),
  drafts: defineModel<Draft>('drafts', {
    id: id(),
    account_id: { type: DataTypes.UUID, allowNull: false },
    to_addresses: list(),
    cc_addresses: list(),
    bcc_addresses: list(),
    subject: text(998),
    text_body: text(),
    html_body: text(),
    in_reply_to: text(998),
    created_by: { type: DataTypes.UUID, allowNull: false },
  }),
  signatures: defineModel<Signature>('signatures', {
    id: id(),
    account_id: { type: DataTypes.UUID, allowNull: false },
    name: { type: DataTypes.STRING(100), allowNull: false },
    text_body: text(),
    html_body: text(),
  }),
  filters: defineModel<Filter>('filters', {
    id: id(),
    account_id: { type: DataTypes.UUID, allowNull: false },
    name: { type: DataTypes.STRING(100), allowNull: false },
    match: { type: DataTypes.STRING(3), allowNull: false, defaultValue: 'all' },
    conditions: { type: DataTypes.JSONB, allowNull: false },
    actions: { type: DataTypes.JSONB, allowNull: false },
    position: { type: DataTypes.INTEGER, allowNull: false },
  }),
  blockedSenders: defineModel<BlockedSender>('blocked_senders', {
    id: id(),
    account_id: { type: DataTypes.UUID, allowNull: false },
    address: { type: DataTypes.STRING(320), allowNull: false },
  }),
  outboxKeys: defineModel<OutboxKey>('outbox_keys', {
    id: id(),
    mailbox_id: { type: DataTypes.UUID, allowNull: false },
    name: { type: DataTypes.STRING(100), allowNull: false },
    prefix: { type: DataTypes.STRING(16), allowNull: false },
    secret_hash: { type: DataTypes.STRING(64), allowNull: false },
    revoked_at: { type: DataTypes.DATE, allowNull: true },
    last_used_at: { type: DataTypes.DATE, allowNull: true },
    created_by: { type: DataTypes.UUID, allowNull: false },
  }),
};

/** The model map type (`ctx.db`). */
export type Models = typeof models;
