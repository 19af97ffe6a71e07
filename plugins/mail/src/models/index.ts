import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** One result of a DNS check: what was expected, what was found, whether it matches. */
export interface RecordCheck {
  ok: boolean;
  found: string[];
  /** The DNS gave no answer (timeout, refusal, server failure): nothing is known either way. */
  unanswered?: boolean;
}

/** A hosted domain; its DKIM private key is sealed with `ctx.secrets`. */
export type Domain = DeclaredRow<typeof models.domains>;

/** A hosted mailbox (and its member's account). */
export type Mailbox = DeclaredRow<typeof models.mailboxes>;

/** A group (distribution list) on a hosted domain. */
export type Group = DeclaredRow<typeof models.groups>;

/** Tiers of a group member, highest first. */
export type Tier = 'owner' | 'manager' | 'member';

/** A member of a group. */
export type GroupMember = DeclaredRow<typeof models.groupMembers>;

/** An address with an optional name. */
export interface Address {
  address: string;
  name?: string;
}

/** A file of a message or a draft: its bytes in the app's storage under `file_key`. */
export interface Attachment {
  id: string;
  file_key: string;
  filename: string;
  content_type: string;
  size_bytes: number;
}

/** A message of an account (account_id) or of a group (group_id). */
export type Message = DeclaredRow<typeof models.messages>;

/** How a connection to a server is secured: implicit TLS, STARTTLS, or none (loopback and tests). */
export type Security = 'tls' | 'starttls' | 'none';

/** A member's external mailbox: IMAP to read, SMTP to send; the passwords sealed in `credentials`. */
export type ConnectedAccount = DeclaredRow<typeof models.connectedAccounts>;

/** Where the sync of one folder of a connected account stands. */
export type AccountFolder = DeclaredRow<typeof models.accountFolders>;

/** A move made here (to the trash, or another folder) that the server has yet to see. */
export type RemoteOperation = DeclaredRow<typeof models.remoteOperations>;

/** A draft of an account. */
export type Draft = DeclaredRow<typeof models.drafts>;

/** A signature of an account. */
export type Signature = DeclaredRow<typeof models.signatures>;

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
export type Filter = DeclaredRow<typeof models.filters>;

/** An address or `@domain` whose mail the account refuses. */
export type BlockedSender = DeclaredRow<typeof models.blockedSenders>;

/** An SMTP submission credential of a mailbox; only the hash of its secret is kept. */
export type OutboxKey = DeclaredRow<typeof models.outboxKeys>;

/** The envelope and body a message and a draft both carry (the same columns in both tables). */
const envelope = {
  to_addresses: column.json<Address[]>().default([]),
  cc_addresses: column.json<Address[]>().default([]),
  bcc_addresses: column.json<Address[]>().default([]),
  subject: column.string(998).default(''),
  text_body: column.text().default(''),
  html_body: column.text().default(''),
  attachments: column.json<Attachment[]>().default([]),
};

/** The app's models, by their name in `ctx.db`. */
export const models = {
  domains: defineModel('domains', {
    id: column.uuid().primaryKey().defaultRandom(),
    name: column.string(253),
    dkim_selector: column.string(63),
    dkim_public_key: column.text(),
    dkim_private_key: column.text(),
    /** This workspace's token for the domain, published in its ownership record to prove control. */
    verification_token: column.string(64),
    catch_all_mailbox_id: column.uuid().nullable(),
    verified_at: column.date().nullable(),
    checked_at: column.date().nullable(),
    checks: column.json<Record<string, RecordCheck>>().default({}),
    created_by: column.uuid(),
  }),
  mailboxes: defineModel('mailboxes', {
    id: column.uuid().primaryKey().defaultRandom(),
    domain_id: column.uuid(),
    local_part: column.string(64),
    address: column.string(320),
    display_name: column.string(200).default(''),
    member_id: column.uuid().nullable(),
    signature_id: column.uuid().nullable(),
    created_by: column.uuid(),
  }),
  groups: defineModel('groups', {
    id: column.uuid().primaryKey().defaultRandom(),
    domain_id: column.uuid(),
    local_part: column.string(64),
    address: column.string(320),
    name: column.string(200),
    description: column.string(2000).default(''),
    who_can_post: column.string(20).of<'anyone' | 'members'>().default('anyone'),
    created_by: column.uuid(),
  }),
  groupMembers: defineModel('group_members', {
    group_id: column.uuid().primaryKey(),
    member_id: column.uuid().primaryKey(),
    tier: column.string(20).of<Tier>().default('member'),
    added_by: column.uuid(),
  }),
  messages: defineModel('messages', {
    id: column.uuid().primaryKey().defaultRandom(),
    account_id: column.uuid().nullable(),
    group_id: column.uuid().nullable(),
    folder: column.string(40).default('inbox'),
    message_id_header: column.string(998).default(''),
    in_reply_to: column.string(998).default(''),
    from_address: column.string(320).default(''),
    from_name: column.string(200).default(''),
    ...envelope,
    /** Outgoing mail: queued until the relay took it, then sent (or failed after the last attempt). */
    delivery_status: column.string(10).of<'queued' | 'sent' | 'failed'>().nullable(),
    attempts: column.integer().default(0),
    next_attempt_at: column.date().nullable(),
    last_error: column.string(500).default(''),
    sent_by: column.uuid().nullable(),
    size_bytes: column.integer().default(0),
    dkim: column.string(20).default('none'),
    seen: column.boolean().default(false),
    flagged: column.boolean().default(false),
    sent_at: column.date().nullable(),
    received_at: column.date().defaultNow(),
    /** A connected account's message: its folder on the server and UID there (null for hosted mail). */
    remote_path: column.string(500).nullable(),
    remote_uid: column.bigint({ mode: 'raw' }).nullable(),
    /** Its seen/flagged changed here and the server has yet to learn it. */
    flags_dirty: column.boolean().default(false),
    /** SPF and DMARC verdicts on arrival through the listener (`none` when not evaluated). */
    spf: column.string(20).default('none'),
    dmarc: column.string(20).default('none'),
  }),
  connectedAccounts: defineModel('connected_accounts', {
    id: column.uuid().primaryKey().defaultRandom(),
    member_id: column.uuid(),
    address: column.string(320),
    display_name: column.string(200).default(''),
    signature_id: column.uuid().nullable(),
    imap_host: column.string(253),
    imap_port: column.integer(),
    imap_security: column.string(10).of<Security>(),
    imap_username: column.string(320),
    smtp_host: column.string(253),
    smtp_port: column.integer(),
    smtp_security: column.string(10).of<Security>(),
    smtp_username: column.string(320),
    /** `ctx.secrets.seal(JSON.stringify({ imap, smtp }))`: the two passwords. */
    credentials: column.text(),
    sync_status: column.string(10).of<'pending' | 'ok' | 'error'>().default('pending'),
    last_error: column.string(500).default(''),
    last_synced_at: column.date().nullable(),
  }),
  accountFolders: defineModel('account_folders', {
    account_id: column.uuid().primaryKey(),
    folder: column.string(40).primaryKey(),
    remote_path: column.string(500),
    uid_validity: column.string(20),
    uid_next: column.bigint({ mode: 'raw' }),
    highest_modseq: column.string(20).nullable(),
  }),
  remoteOperations: defineModel('remote_operations', {
    id: column.uuid().primaryKey().defaultRandom(),
    account_id: column.uuid(),
    /** The local message that moved (null when it was deleted here: only the server's copy moves). */
    message_id: column.uuid().nullable(),
    remote_path: column.string(500),
    uid_validity: column.string(20),
    remote_uid: column.bigint({ mode: 'raw' }),
    target_folder: column.string(40),
  }),
  drafts: defineModel('drafts', {
    id: column.uuid().primaryKey().defaultRandom(),
    account_id: column.uuid(),
    ...envelope,
    in_reply_to: column.string(998).default(''),
    created_by: column.uuid(),
  }),
  signatures: defineModel('signatures', {
    id: column.uuid().primaryKey().defaultRandom(),
    account_id: column.uuid(),
    name: column.string(100),
    text_body: column.text().default(''),
    html_body: column.text().default(''),
  }),
  filters: defineModel('filters', {
    id: column.uuid().primaryKey().defaultRandom(),
    account_id: column.uuid(),
    name: column.string(100),
    match: column.string(3).of<'all' | 'any'>().default('all'),
    conditions: column.json<FilterCondition[]>(),
    actions: column.json<FilterAction[]>(),
    position: column.integer(),
  }),
  blockedSenders: defineModel('blocked_senders', {
    id: column.uuid().primaryKey().defaultRandom(),
    account_id: column.uuid(),
    address: column.string(320),
  }),
  outboxKeys: defineModel('outbox_keys', {
    id: column.uuid().primaryKey().defaultRandom(),
    mailbox_id: column.uuid(),
    name: column.string(100),
    prefix: column.string(16),
    secret_hash: column.string(64),
    revoked_at: column.date().nullable(),
    last_used_at: column.date().nullable(),
    created_by: column.uuid(),
  }),
};

/** The model map type (`ctx.db`). */
export type Models = typeof models;
